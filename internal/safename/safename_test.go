package safename

import (
	"path/filepath"
	"strings"
	"testing"
)

// safe is the property every Component result has: one path element,
// neither hidden nor special, of bounded length and a portable alphabet.
func safe(t *testing.T, in, c string) {
	t.Helper()
	if c == "" || c == "." || c == ".." || c[0] == '.' || len(c) > MaxLen ||
		filepath.Base(c) != c || strings.ContainsAny(c, "/\\\x00\n\r") {
		t.Fatalf("Component(%q) = %q is not one safe component", in, c)
	}
	for _, r := range c {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' || r == '_') {
			t.Fatalf("Component(%q) = %q holds %q", in, c, r)
		}
	}
}

func TestComponent(t *testing.T) {
	long := strings.Repeat("a", 300)
	cases := []struct{ in, want string }{
		{"iris", "iris"},
		{"fgrt-opt", "fgrt-opt"},
		{"my_fgrt.v2", "my_fgrt.v2"},
		{"my fgrt", "my_fgrt"},
		{"../x.csv", "_._x.csv"},
		{"..", "_."},
		{".", "_"},
		{".hidden", "_hidden"},
		{"/etc/passwd", "_etc_passwd"},
		{`a\b`, "a_b"},
		{"a\x00b", "a_b"},
		{"a\nb\r", "a_b_"},
		{"größe", "gr__e"},
		{"日本", "__"},
		{"", "_"},
		{long, strings.Repeat("a", MaxLen-17) + "-" + "b3a31b3e0ce1ab4e"},
	}
	for _, c := range cases {
		got := Component(c.in)
		safe(t, c.in, got)
		if c.in == long {
			// The hash tail is checked for shape, the prefix for content.
			if !strings.HasPrefix(got, strings.Repeat("a", MaxLen-17)+"-") || len(got) != MaxLen {
				t.Errorf("300-character name: %q", got)
			}
			continue
		}
		if got != c.want {
			t.Errorf("Component(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	// Two long names with one prefix stay apart.
	if Component(long+"x") == Component(long+"y") {
		t.Error("long names sharing a prefix collide")
	}
}

func TestCollision(t *testing.T) {
	if a, b, ok := Collision([]string{"my fgrt", "cart", "my_fgrt"}); !ok || a != "my fgrt" || b != "my_fgrt" {
		t.Errorf("got %q %q %v", a, b, ok)
	}
	if _, _, ok := Collision([]string{"cart", "fgrt", "cart"}); ok {
		t.Error("the same name twice is not a collision of two names")
	}
}

func FuzzComponent(f *testing.F) {
	for _, s := range []string{"", ".", "..", "../../x", "/", "a/b", "a\x00", "\n", "日本語", strings.Repeat("é", 200), ".git"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := Component(s)
		safe(t, s, c)
		if Component(c) != c {
			t.Fatalf("Component is not idempotent: %q -> %q -> %q", s, c, Component(c))
		}
	})
}
