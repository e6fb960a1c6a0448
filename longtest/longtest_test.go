package longtest

import "testing"

func TestEnabledReadsTheEnvironment(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  bool
	}{{"", false}, {"1", true}, {"0", true}} {
		t.Setenv(Env, tc.value)
		if got := Enabled(); got != tc.want {
			t.Errorf("Enabled() with %s=%q = %v, want %v", Env, tc.value, got, tc.want)
		}
	}
}

func TestSkipSkipsUnlessEnabled(t *testing.T) {
	for _, tc := range []struct {
		value   string
		skipped bool
	}{{"", true}, {"1", false}} {
		t.Setenv(Env, tc.value)
		ran := false
		t.Run("gate", func(t *testing.T) {
			Skip(t, "a test")
			ran = true
		})
		if ran == tc.skipped {
			t.Errorf("with %s=%q the gated test ran %v, want %v", Env, tc.value, ran, !tc.skipped)
		}
	}
}
