//go:build amd64 && !purego

#include "textflag.h"
#include "rows_amd64.h"

// See kernels32_amd64.go and kernels32.go. Go's operand order: the
// destination is last. A float32 lane of a Y register holds one element;
// lane j of Y is element j of the eight loaded from memory.

// VEC8 fills the 32 bytes at tanh32Const<>+off with eight copies of the
// float32 whose bits are bits.
#define VEC8(off, bits) \
	DATA tanh32Const<>+(off)(SB)/4, $bits \
	DATA tanh32Const<>+(off+4)(SB)/4, $bits \
	DATA tanh32Const<>+(off+8)(SB)/4, $bits \
	DATA tanh32Const<>+(off+12)(SB)/4, $bits \
	DATA tanh32Const<>+(off+16)(SB)/4, $bits \
	DATA tanh32Const<>+(off+20)(SB)/4, $bits \
	DATA tanh32Const<>+(off+24)(SB)/4, $bits \
	DATA tanh32Const<>+(off+28)(SB)/4, $bits

// tanh32's constants (see tanh32Generic), eight lanes each, as the bits of
// the Go constants rounded to float32 (the assembler would round a decimal
// to float64 first).
VEC8(0, 0x7fffffff)   // mask of the magnitude bits
VEC8(32, 0x39d1b717)  // tanh32Linear = 0.0004
VEC8(64, 0x3ba059dc)  // p: 4.89352455891786e-03
VEC8(96, 0x3a270ded)  // 6.37261928875436e-04 (x²)
VEC8(128, 0x3779434a) // 1.48572235717979e-05
VEC8(160, 0x335c0041) // 5.12229709037114e-08 (x²)
VEC8(192, 0xaebd37ff) // -8.60467152213735e-11
VEC8(224, 0x2a61337e) // 2.00018790482477e-13 (x²)
VEC8(256, 0xa59f25c0) // -2.76076847742355e-16 (x⁴)
VEC8(288, 0x3ba059dd) // q: 4.89352518554385e-03
VEC8(320, 0x3b14aa05) // 2.26843463243900e-03 (x²)
VEC8(352, 0x38f895d6) // 1.18534705686654e-04
VEC8(384, 0x35a0d3d8) // 1.19825839466702e-06 (x²)
VEC8(416, 0x40fcf84f) // tanh32Clamp = 7.90531110763549805
VEC8(448, 0xc0fcf84f) // -tanh32Clamp
GLOBL tanh32Const<>(SB), RODATA|NOPTR, $480

// tail32Mask: eight all-ones lanes, then eight zero lanes. The 32 bytes at
// tail32Mask<>+32-4r select the first r lanes (VMASKMOVPS).
DATA tail32Mask<>+0(SB)/8, $-1
DATA tail32Mask<>+8(SB)/8, $-1
DATA tail32Mask<>+16(SB)/8, $-1
DATA tail32Mask<>+24(SB)/8, $-1
DATA tail32Mask<>+32(SB)/8, $0
DATA tail32Mask<>+40(SB)/8, $0
DATA tail32Mask<>+48(SB)/8, $0
DATA tail32Mask<>+56(SB)/8, $0
GLOBL tail32Mask<>(SB), RODATA|NOPTR, $64

// TAILMASK sets Y (a Y or an X register) to the mask of its first R lanes
// (R <= 8 for a Y register, R <= 4 for an X one), using R10 and R11.
#define TAILMASK(R, Y) \
	MOVQ    R, R10 \
	NEGQ    R10 \
	LEAQ    tail32Mask<>+32(SB), R11 \
	VMOVDQU (R11)(R10*4), Y

// TANH8 replaces the eight lanes of X by their tanh32, as tanh32Generic
// computes them (Estrin's scheme), using XL, X2, X4, P, T, U as scratch and
// the clamp bounds in Y14 (c) and Y15 (-c). The clamp puts x second in
// VMINPS/VMAXPS, which return their second operand when either is NaN, so
// that a NaN passes through as in Go. The lanes where |x| < tanh32Linear
// (never a NaN) are moved to XL (x there, +0 elsewhere) and replaced by +0
// in X, so that the rational function never meets a denormal; its value
// there, +0, is then ORed with XL, which keeps x and its sign (-0 stays -0).
#define TANH8(X, XL, X2, X4, P, T, U) \
	VMINPS  X, Y14, X \
	VMAXPS  X, Y15, X \
	VANDPS  tanh32Const<>+0(SB), X, T \
	VCMPPS  $1, tanh32Const<>+32(SB), T, T \
	VANDPS  X, T, XL \
	VANDNPS X, T, X \
	VMULPS  X, X, X2 \
	VMULPS  X2, X2, X4 \
	VMULPS  tanh32Const<>+96(SB), X2, P \
	VADDPS  tanh32Const<>+64(SB), P, P \
	VMULPS  tanh32Const<>+160(SB), X2, T \
	VADDPS  tanh32Const<>+128(SB), T, T \
	VMULPS  X4, T, T \
	VADDPS  T, P, P \
	VMULPS  tanh32Const<>+224(SB), X2, T \
	VADDPS  tanh32Const<>+192(SB), T, T \
	VMULPS  tanh32Const<>+256(SB), X4, U \
	VADDPS  U, T, T \
	VMULPS  X4, X4, U \
	VMULPS  U, T, T \
	VADDPS  T, P, P \
	VMULPS  tanh32Const<>+320(SB), X2, U \
	VADDPS  tanh32Const<>+288(SB), U, U \
	VMULPS  tanh32Const<>+384(SB), X2, T \
	VADDPS  tanh32Const<>+352(SB), T, T \
	VMULPS  X4, T, T \
	VADDPS  T, U, U \
	VMULPS  P, X, X \
	VDIVPS  U, X, X \
	VORPS   XL, X, X

// In TANH8's terms: P = p01, p03, p; T = p23, p45, p46, x⁸·p46, q23, x⁴·q23;
// U = x⁴·c13, x⁸, q01, q.

// func tanh32AVX2(z *float32, n int)
//
// Sixteen elements at a time, as two groups of eight side by side for
// instruction-level parallelism (Y0..Y6 and Y7..Y13), then the last one or
// two groups. A last partial group (in Y7) is loaded with a mask, the lanes
// beyond z[n-1] reading as +0 and computed for nothing, and stored through
// the 32-byte frame, element by element.
TEXT ·tanh32AVX2(SB), NOSPLIT, $32-16
	MOVQ    z+0(FP), DI
	MOVQ    n+8(FP), CX
	VMOVUPS tanh32Const<>+416(SB), Y14
	VMOVUPS tanh32Const<>+448(SB), Y15

tanhpairs:
	CMPQ    CX, $16
	JLT     tanhtail
	VMOVUPS (DI), Y0
	VMOVUPS 32(DI), Y7
	TANH8(Y0, Y1, Y2, Y3, Y4, Y5, Y6)
	TANH8(Y7, Y8, Y9, Y10, Y11, Y12, Y13)
	VMOVUPS Y0, (DI)
	VMOVUPS Y7, 32(DI)
	ADDQ    $64, DI
	SUBQ    $16, CX
	JMP     tanhpairs

tanhtail:
	CMPQ       CX, $8
	JLT        tanhlast
	JEQ        tanheight
	SUBQ       $8, CX      // 9..15 left: a full group and CX in Y7
	TAILMASK(CX, Y12)
	VMASKMOVPS 32(DI), Y12, Y7
	VMOVUPS    (DI), Y0
	TANH8(Y0, Y1, Y2, Y3, Y4, Y5, Y6)
	TANH8(Y7, Y8, Y9, Y10, Y11, Y12, Y13)
	VMOVUPS    Y0, (DI)
	ADDQ       $32, DI
	JMP        tanhpartial

tanheight:
	VMOVUPS (DI), Y7
	TANH8(Y7, Y8, Y9, Y10, Y11, Y12, Y13)
	VMOVUPS Y7, (DI)
	JMP     tanhdone

tanhlast:
	TESTQ      CX, CX      // 0..7 left, in Y7
	JZ         tanhdone
	TAILMASK(CX, Y12)
	VMASKMOVPS (DI), Y12, Y7
	TANH8(Y7, Y8, Y9, Y10, Y11, Y12, Y13)

tanhpartial:
	VMOVUPS Y7, (SP)       // the first CX < 8 lanes go to DI
	XORQ    R10, R10

tanhstore:
	MOVL (SP)(R10*4), R11
	MOVL R11, (DI)(R10*4)
	INCQ R10
	CMPQ R10, CX
	JLT  tanhstore

tanhdone:
	VZEROUPPER
	RET

// ACT8 sets Y to float32(acc)*unit + b for the eight elements at byte
// offset off+R9 (acc in SI, unit in DX, b in R8).
#define ACT8(off, Y) \
	VCVTDQ2PS off(SI)(R9*1), Y \
	VMULPS    off(DX)(R9*1), Y, Y \
	VADDPS    off(R8)(R9*1), Y, Y

// ACT8MASK is ACT8 on the lanes of mask M, the others set to +0, using T
// as scratch.
#define ACT8MASK(off, Y, M, T) \
	VPMASKMOVD off(SI)(R9*1), M, Y \
	VCVTDQ2PS  Y, Y \
	VMASKMOVPS off(DX)(R9*1), M, T \
	VMULPS     T, Y, Y \
	VMASKMOVPS off(R8)(R9*1), M, T \
	VADDPS     T, Y, Y

// func activateAVX2(dst *float32, acc *int32, unit, b *float32, n int)
//
// tanh32AVX2 on float32(acc[h])*unit[h] + b[h], in the same groups; R9 is
// the byte offset of the current group in all four arrays.
TEXT ·activateAVX2(SB), NOSPLIT, $32-40
	MOVQ    dst+0(FP), DI
	MOVQ    acc+8(FP), SI
	MOVQ    unit+16(FP), DX
	MOVQ    b+24(FP), R8
	MOVQ    n+32(FP), CX
	VMOVUPS tanh32Const<>+416(SB), Y14
	VMOVUPS tanh32Const<>+448(SB), Y15
	XORQ    R9, R9

actpairs:
	CMPQ    CX, $16
	JLT     acttail
	ACT8(0, Y0)
	ACT8(32, Y7)
	TANH8(Y0, Y1, Y2, Y3, Y4, Y5, Y6)
	TANH8(Y7, Y8, Y9, Y10, Y11, Y12, Y13)
	VMOVUPS Y0, (DI)(R9*1)
	VMOVUPS Y7, 32(DI)(R9*1)
	ADDQ    $64, R9
	SUBQ    $16, CX
	JMP     actpairs

acttail:
	CMPQ    CX, $8
	JLT     actlast
	JEQ     acteight
	SUBQ    $8, CX          // 9..15 left: a full group and CX in Y7
	TAILMASK(CX, Y12)
	ACT8MASK(32, Y7, Y12, Y8)
	ACT8(0, Y0)
	TANH8(Y0, Y1, Y2, Y3, Y4, Y5, Y6)
	TANH8(Y7, Y8, Y9, Y10, Y11, Y12, Y13)
	VMOVUPS Y0, (DI)(R9*1)
	ADDQ    $32, R9
	JMP     actpartial

acteight:
	ACT8(0, Y7)
	TANH8(Y7, Y8, Y9, Y10, Y11, Y12, Y13)
	VMOVUPS Y7, (DI)(R9*1)
	JMP     actdone

actlast:
	TESTQ   CX, CX          // 0..7 left, in Y7
	JZ      actdone
	TAILMASK(CX, Y12)
	ACT8MASK(0, Y7, Y12, Y8)
	TANH8(Y7, Y8, Y9, Y10, Y11, Y12, Y13)

actpartial:
	ADDQ    R9, DI
	VMOVUPS Y7, (SP)        // the first CX < 8 lanes go to DI
	XORQ    R10, R10

actstore:
	MOVL (SP)(R10*4), R11
	MOVL R11, (DI)(R10*4)
	INCQ R10
	CMPQ R10, CX
	JLT  actstore

actdone:
	VZEROUPPER
	RET

// func affine32AVX2(out, w, b, x *float32, rows, n int)
//
// For each row: Y accumulates the eight partial sums s0..s7 over the first
// n &^ 7 elements (lane j gets w[i]*x[i] for i = j mod 8, in order); their
// upper half s4..s7 is then moved to an X register, and the remaining
// elements go to s0 alone (VEX scalar operations keep lanes 1..3 of the X
// register and clear the upper half of the Y one); the result is
// ((s0+s4)+(s2+s6)) + ((s1+s5)+(s3+s7)) + b. Rows go four at a time (Y0..Y3
// on rows SI, R12, R13, BX, sharing the loads of x), their four sums
// computed side by side in one X register after a transposition. Two or
// three last rows go the same way, the last of them computed twice (or
// three times) and stored once; a single row goes alone.
TEXT ·affine32AVX2(SB), NOSPLIT, $0-48
	MOVQ out+0(FP), DI
	MOVQ w+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ x+24(FP), R8
	MOVQ rows+32(FP), R9
	MOVQ n+40(FP), R10
	MOVQ R10, R11
	ANDQ $-8, R11
	SHLQ $2, R11 // R11: bytes covered by the vector loop
	SHLQ $2, R10 // R10: bytes per row

quads:
	CMPQ R9, $4
	JGE  quadrows
	CMPQ R9, $1
	JLT  done
	JEQ  single
	LEAQ (SI)(R10*1), R12 // two or three rows left
	MOVQ R12, R13
	CMPQ R9, $3
	JLT  quadpad
	LEAQ (R12)(R10*1), R13

quadpad:
	MOVQ R13, BX
	JMP  quadstart

quadrows:
	LEAQ (SI)(R10*1), R12
	LEAQ (R12)(R10*1), R13
	LEAQ (R13)(R10*1), BX

quadstart:
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	XORQ   CX, CX

quadvec:
	CMPQ    CX, R11
	JGE     quadrest
	VMOVUPS (R8)(CX*1), Y4
	VMULPS  (SI)(CX*1), Y4, Y5
	VMULPS  (R12)(CX*1), Y4, Y6
	VMULPS  (R13)(CX*1), Y4, Y7
	VMULPS  (BX)(CX*1), Y4, Y8
	VADDPS  Y5, Y0, Y0
	VADDPS  Y6, Y1, Y1
	VADDPS  Y7, Y2, Y2
	VADDPS  Y8, Y3, Y3
	ADDQ    $32, CX
	JMP     quadvec

quadrest:
	VEXTRACTF128 $1, Y0, X9 // s4..s7 of each row
	VEXTRACTF128 $1, Y1, X10
	VEXTRACTF128 $1, Y2, X11
	VEXTRACTF128 $1, Y3, X12

quadscalar:
	CMPQ   CX, R10
	JGE    quadsum
	VMOVSS (R8)(CX*1), X4
	VMULSS (SI)(CX*1), X4, X5
	VMULSS (R12)(CX*1), X4, X6
	VMULSS (R13)(CX*1), X4, X7
	VMULSS (BX)(CX*1), X4, X8
	VADDSS X5, X0, X0
	VADDSS X6, X1, X1
	VADDSS X7, X2, X2
	VADDSS X8, X3, X3
	ADDQ   $4, CX
	JMP    quadscalar

quadsum:
	// Rows a, b, c, d in X0..X3: t = [s0+s4, s1+s5, s2+s6, s3+s7].
	VADDPS    X9, X0, X0
	VADDPS    X10, X1, X1
	VADDPS    X11, X2, X2
	VADDPS    X12, X3, X3
	VUNPCKLPS X1, X0, X4 // [a0, b0, a1, b1]
	VUNPCKHPS X1, X0, X5 // [a2, b2, a3, b3]
	VADDPS    X5, X4, X4 // [a0+a2, b0+b2, a1+a3, b1+b3]
	VUNPCKLPS X3, X2, X5 // [c0, d0, c1, d1]
	VUNPCKHPS X3, X2, X6 // [c2, d2, c3, d3]
	VADDPS    X6, X5, X5 // [c0+c2, d0+d2, c1+c3, d1+d3]
	VMOVLHPS  X5, X4, X6 // [a0+a2, b0+b2, c0+c2, d0+d2]
	VMOVHLPS  X4, X5, X7 // [a1+a3, b1+b3, c1+c3, d1+d3]
	VADDPS    X7, X6, X6
	CMPQ      R9, $4
	JLT       quadpart
	VADDPS    (DX), X6, X6
	VMOVUPS   X6, (DI)
	LEAQ      (BX)(R10*1), SI
	ADDQ      $16, DI
	ADDQ      $16, DX
	SUBQ      $4, R9
	JMP       quads

quadpart:
	TAILMASK(R9, X7)       // the first R9 = 2 or 3 lanes
	VMASKMOVPS (DX), X7, X7
	VADDPS     X7, X6, X6
	VMOVLPS    X6, (DI)
	CMPQ       R9, $3
	JLT        done
	VEXTRACTPS $2, X6, 8(DI)
	JMP        done

single:
	VXORPS Y0, Y0, Y0
	XORQ   CX, CX

singlevec:
	CMPQ    CX, R11
	JGE     singlerest
	VMOVUPS (R8)(CX*1), Y4
	VMULPS  (SI)(CX*1), Y4, Y5
	VADDPS  Y5, Y0, Y0
	ADDQ    $32, CX
	JMP     singlevec

singlerest:
	VEXTRACTF128 $1, Y0, X9

singlescalar:
	CMPQ   CX, R10
	JGE    singlesum
	VMOVSS (R8)(CX*1), X4
	VMULSS (SI)(CX*1), X4, X5
	VADDSS X5, X0, X0
	ADDQ   $4, CX
	JMP    singlescalar

singlesum:
	VADDPS    X9, X0, X0 // t = [s0+s4, s1+s5, s2+s6, s3+s7]
	VMOVHLPS  X0, X0, X1 // [t2, t3, t2, t3]
	VADDPS    X1, X0, X0 // [t0+t2, t1+t3, ...]
	VMOVSHDUP X0, X1     // [t1+t3, ...]
	VADDSS    X1, X0, X0
	VADDSS    (DX), X0, X0
	VMOVSS    X0, (DI)

done:
	VZEROUPPER
	RET

// func addSubColsAVX2(dst, src, p, m *int32, n int)
TEXT ·addSubColsAVX2(SB), NOSPLIT, $0-40
	ADDSUBROWS(VPADDD, VPSUBD, 2)

// func addColsAVX2(dst, src, r *int32, n int)
TEXT ·addColsAVX2(SB), NOSPLIT, $0-32
	ROWS(VPADDD, 2)

// func subColsAVX2(dst, src, r *int32, n int)
TEXT ·subColsAVX2(SB), NOSPLIT, $0-32
	ROWS(VPSUBD, 2)
