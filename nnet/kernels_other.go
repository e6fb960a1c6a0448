//go:build !amd64 || purego

package nnet

// Without the AVX2 kernels (see kernels32_amd64.go) everything runs as
// portable Go.

// useAVX2 is false: there are no vector kernels in this build.
const useAVX2 = false
