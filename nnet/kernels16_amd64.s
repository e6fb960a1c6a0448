//go:build amd64 && !purego

#include "textflag.h"

// See kernels16_amd64.go and kernels16.go. Go's operand order: the
// destination is last. An int16 lane of a Y register holds one element;
// n is a positive multiple of 16 in every function, which goes 32 lanes
// (two registers) at a time, then 16 for an odd group.

// func addSub16AVX2(dst, src, p, m *int16, n int)
//
// dst[i] = src[i] + p[i] - m[i], wrapping (VPADDW, VPSUBW).
TEXT ·addSub16AVX2(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ p+16(FP), DX
	MOVQ m+24(FP), R8
	MOVQ n+32(FP), CX
	XORQ AX, AX

addsub32:
	CMPQ    CX, $32
	JLT     addsub16
	VMOVDQU (SI)(AX*1), Y0
	VMOVDQU 32(SI)(AX*1), Y1
	VPADDW  (DX)(AX*1), Y0, Y0
	VPADDW  32(DX)(AX*1), Y1, Y1
	VPSUBW  (R8)(AX*1), Y0, Y0
	VPSUBW  32(R8)(AX*1), Y1, Y1
	VMOVDQU Y0, (DI)(AX*1)
	VMOVDQU Y1, 32(DI)(AX*1)
	ADDQ    $64, AX
	SUBQ    $32, CX
	JMP     addsub32

addsub16:
	TESTQ   CX, CX
	JZ      addsubdone
	VMOVDQU (SI)(AX*1), Y0
	VPADDW  (DX)(AX*1), Y0, Y0
	VPSUBW  (R8)(AX*1), Y0, Y0
	VMOVDQU Y0, (DI)(AX*1)

addsubdone:
	VZEROUPPER
	RET

// func add16AVX2(dst, src, p *int16, n int)
//
// dst[i] = src[i] + p[i], wrapping, in addSub16AVX2's steps.
TEXT ·add16AVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ p+16(FP), DX
	MOVQ n+24(FP), CX
	XORQ AX, AX

add32:
	CMPQ    CX, $32
	JLT     add16
	VMOVDQU (SI)(AX*1), Y0
	VMOVDQU 32(SI)(AX*1), Y1
	VPADDW  (DX)(AX*1), Y0, Y0
	VPADDW  32(DX)(AX*1), Y1, Y1
	VMOVDQU Y0, (DI)(AX*1)
	VMOVDQU Y1, 32(DI)(AX*1)
	ADDQ    $64, AX
	SUBQ    $32, CX
	JMP     add32

add16:
	TESTQ   CX, CX
	JZ      adddone
	VMOVDQU (SI)(AX*1), Y0
	VPADDW  (DX)(AX*1), Y0, Y0
	VMOVDQU Y0, (DI)(AX*1)

adddone:
	VZEROUPPER
	RET

// func sub16AVX2(dst, src, m *int16, n int)
//
// dst[i] = src[i] - m[i], wrapping, in addSub16AVX2's steps.
TEXT ·sub16AVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ m+16(FP), DX
	MOVQ n+24(FP), CX
	XORQ AX, AX

sub32:
	CMPQ    CX, $32
	JLT     sub16
	VMOVDQU (SI)(AX*1), Y0
	VMOVDQU 32(SI)(AX*1), Y1
	VPSUBW  (DX)(AX*1), Y0, Y0
	VPSUBW  32(DX)(AX*1), Y1, Y1
	VMOVDQU Y0, (DI)(AX*1)
	VMOVDQU Y1, 32(DI)(AX*1)
	ADDQ    $64, AX
	SUBQ    $32, CX
	JMP     sub32

sub16:
	TESTQ   CX, CX
	JZ      subdone
	VMOVDQU (SI)(AX*1), Y0
	VPSUBW  (DX)(AX*1), Y0, Y0
	VMOVDQU Y0, (DI)(AX*1)

subdone:
	VZEROUPPER
	RET

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
