#!/bin/sh
# Run a fgrtbench study on Kubernetes with one command: the Indexed Job of
# shards, then (when every index has succeeded) the merge + report Job.
#
#   deploy/k8s/run.sh SPEC [TIMEOUT_SECONDS]   # e.g. deploy/k8s/run.sh sweep.yaml 7200
#
# Expects volumes.yaml applied and the image set in shards-job.yaml and
# merge-job.yaml. The report ends up on the fgrtbench-results volume at
# merged/report/REPORT.md. Re-running after a failure resumes every shard's
# directory (finished units are not run again): the previous Jobs are
# deleted first, the volume is kept.
set -eu
spec=${1:?usage: deploy/k8s/run.sh SPEC [TIMEOUT_SECONDS]}
timeout=${2:-21600}
here=$(cd "$(dirname "$0")" && pwd)

# wait_job NAME: poll the Job until it is Complete (0) or Failed (1).
wait_job() {
  deadline=$(($(date +%s) + timeout))
  while [ "$(date +%s)" -lt "$deadline" ]; do
    state=$(kubectl get job "$1" -o jsonpath='{.status.conditions[?(@.status=="True")].type}')
    case " $state " in
      *" Complete "*) return 0 ;;
      *" Failed "*) return 1 ;;
    esac
    sleep 10
  done
  echo "run.sh: job/$1 still running after ${timeout}s" >&2
  return 1
}

kubectl create configmap fgrtbench-spec --from-file=study.yaml="$spec" --dry-run=client -o yaml | kubectl apply -f -
kubectl delete job fgrtbench-shards fgrtbench-merge --ignore-not-found
kubectl apply -f "$here/shards-job.yaml"
echo "waiting for job/fgrtbench-shards"
wait_job fgrtbench-shards || {
  echo "run.sh: the shards did not all complete; see 'kubectl logs -l job-name=fgrtbench-shards --prefix'; rerun to resume" >&2
  exit 1
}
kubectl apply -f "$here/merge-job.yaml"
wait_job fgrtbench-merge || {
  echo "run.sh: merge or report failed; see 'kubectl logs job/fgrtbench-merge --all-containers'" >&2
  exit 1
}
kubectl logs job/fgrtbench-merge --all-containers
echo "report: merged/report/REPORT.md on the fgrtbench-results volume"
