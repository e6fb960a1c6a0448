//go:build amd64 && !purego

#include "textflag.h"
#include "rows_amd64.h"

// See kernels16_amd64.go and kernels16.go, and rows_amd64.h for the row
// kernels' bodies. Go's operand order: the destination is last. An int16
// lane of a Y register holds one element; n is a positive multiple of 16
// in every function, which goes 32 lanes (two registers) at a time, then
// 16 for an odd group.

// func addSub16AVX2(dst, src, p, m *int16, n int)
TEXT ·addSub16AVX2(SB), NOSPLIT, $0-40
	ADDSUBROWS(VPADDW, VPSUBW, 1)

// func add16AVX2(dst, src, r *int16, n int)
TEXT ·add16AVX2(SB), NOSPLIT, $0-32
	ROWS(VPADDW, 1)

// func sub16AVX2(dst, src, r *int16, n int)
TEXT ·sub16AVX2(SB), NOSPLIT, $0-32
	ROWS(VPSUBW, 1)

// func creluDot16AVX2(acc, w *int16, n, clip int) int32
//
// Each lane of acc is clipped to [0, clip] (VPMAXSW with zero, VPMINSW
// with clip in every lane), multiplied by its weight, and the products of
// neighbouring lanes summed to int32 (VPMADDWD: at most 2*clip*32768,
// exact); Y0 and Y4 accumulate eight int32 sums each, which are added up
// at the end. int32 addition is exact modulo 2^32 in any order, so the
// result is the portable loop's bit for bit.
TEXT ·creluDot16AVX2(SB), NOSPLIT, $0-36
	MOVQ         acc+0(FP), SI
	MOVQ         w+8(FP), DX
	MOVQ         n+16(FP), CX
	MOVQ         clip+24(FP), AX
	VMOVD        AX, X1
	VPBROADCASTW X1, Y1
	VPXOR        Y2, Y2, Y2
	VPXOR        Y0, Y0, Y0
	VPXOR        Y4, Y4, Y4

dot32:
	CMPQ     CX, $32
	JLT      dot16
	VMOVDQU  (SI), Y3
	VMOVDQU  32(SI), Y5
	VPMAXSW  Y2, Y3, Y3
	VPMAXSW  Y2, Y5, Y5
	VPMINSW  Y1, Y3, Y3
	VPMINSW  Y1, Y5, Y5
	VPMADDWD (DX), Y3, Y3
	VPMADDWD 32(DX), Y5, Y5
	VPADDD   Y3, Y0, Y0
	VPADDD   Y5, Y4, Y4
	ADDQ     $64, SI
	ADDQ     $64, DX
	SUBQ     $32, CX
	JMP      dot32

dot16:
	TESTQ    CX, CX
	JZ       dotsum
	VMOVDQU  (SI), Y3
	VPMAXSW  Y2, Y3, Y3
	VPMINSW  Y1, Y3, Y3
	VPMADDWD (DX), Y3, Y3
	VPADDD   Y3, Y0, Y0

dotsum:
	VPADDD       Y4, Y0, Y0
	VEXTRACTI128 $1, Y0, X3
	VPADDD       X3, X0, X0
	VPSHUFD      $0x4e, X0, X3
	VPADDD       X3, X0, X0
	VPSHUFD      $0xb1, X0, X3
	VPADDD       X3, X0, X0
	VMOVD        X0, AX
	MOVL         AX, ret+32(FP)
	VZEROUPPER
	RET
