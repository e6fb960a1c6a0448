//go:build amd64 && !purego

package nnet

import "golang.org/x/sys/cpu"

// kernels32_amd64.go and kernels32_amd64.s hold AVX2 versions of the
// evaluators' kernels. Build with -tags purego to leave them out.

// useAVX2 reports whether the processor and the operating system support
// AVX2 (golang.org/x/sys/cpu checks both CPUID and the saving of the YMM
// registers). It is set once at initialisation and never written again.
var useAVX2 = cpu.X86.HasAVX2
