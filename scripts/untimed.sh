# untimed FILE: a CSV file (results.csv or a report table) without its
# timing columns, i.e. every column whose header names seconds; "-" reads
# stdin. Quoted fields are kept as they are, so a comma inside one does not
# shift the columns. Sourced by scripts/faults.sh and deploy/slurm/e2e.sh,
# which compare results "byte for byte, timing columns aside".
untimed() {
  perl -ne '
    chomp; my @f;
    while (/\G("(?:[^"]|"")*"|[^,]*)(,|$)/g) { push @f, $1; last if $2 eq ""; }
    @keep = grep { $f[$_] !~ /seconds/ } 0 .. $#f if $. == 1;
    print join(",", @f[@keep]), "\n";
  ' "$1"
}
