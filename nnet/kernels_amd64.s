//go:build amd64 && !purego

#include "textflag.h"

// See kernels_amd64.go. Go's operand order: the destination is last.

// func affineAVX2(out, w, b, x *float64, rows, n int)
//
// For each row: Y accumulates the four partial sums s0..s3 over the first
// n &^ 3 elements (lane j gets w[i]*x[i] for i = j mod 4, in order); the
// remaining elements go to s0 alone (VEX scalar operations keep the upper
// lane of the XMM register, s1); the result is (s0+s1)+(s2+s3)+b. Rows go
// four at a time (Y0..Y3 on rows SI, R12, R13, BX), sharing the loads of
// x, then one at a time.
TEXT ·affineAVX2(SB), NOSPLIT, $0-48
	MOVQ out+0(FP), DI
	MOVQ w+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ x+24(FP), R8
	MOVQ rows+32(FP), R9
	MOVQ n+40(FP), R10
	MOVQ R10, R11
	ANDQ $-4, R11
	SHLQ $3, R11 // R11: bytes covered by the vector loop
	SHLQ $3, R10 // R10: bytes per row

quads:
	CMPQ   R9, $4
	JLT    single
	LEAQ   (SI)(R10*1), R12
	LEAQ   (R12)(R10*1), R13
	LEAQ   (R13)(R10*1), BX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	XORQ   CX, CX

quadvec:
	CMPQ    CX, R11
	JGE     quadrest
	VMOVUPD (R8)(CX*1), Y4
	VMULPD  (SI)(CX*1), Y4, Y5
	VMULPD  (R12)(CX*1), Y4, Y6
	VMULPD  (R13)(CX*1), Y4, Y7
	VMULPD  (BX)(CX*1), Y4, Y8
	VADDPD  Y5, Y0, Y0
	VADDPD  Y6, Y1, Y1
	VADDPD  Y7, Y2, Y2
	VADDPD  Y8, Y3, Y3
	ADDQ    $32, CX
	JMP     quadvec

quadrest:
	VEXTRACTF128 $1, Y0, X9 // s2, s3 of each row
	VEXTRACTF128 $1, Y1, X10
	VEXTRACTF128 $1, Y2, X11
	VEXTRACTF128 $1, Y3, X12

quadscalar:
	CMPQ   CX, R10
	JGE    quadsum
	VMOVSD (R8)(CX*1), X4
	VMULSD (SI)(CX*1), X4, X5
	VMULSD (R12)(CX*1), X4, X6
	VMULSD (R13)(CX*1), X4, X7
	VMULSD (BX)(CX*1), X4, X8
	VADDSD X5, X0, X0
	VADDSD X6, X1, X1
	VADDSD X7, X2, X2
	VADDSD X8, X3, X3
	ADDQ   $8, CX
	JMP    quadscalar

quadsum:
	VHADDPD X0, X0, X0 // s0+s1
	VHADDPD X9, X9, X9 // s2+s3
	VADDSD  X9, X0, X0
	VADDSD  (DX), X0, X0
	VMOVSD  X0, (DI)
	VHADDPD X1, X1, X1
	VHADDPD X10, X10, X10
	VADDSD  X10, X1, X1
	VADDSD  8(DX), X1, X1
	VMOVSD  X1, 8(DI)
	VHADDPD X2, X2, X2
	VHADDPD X11, X11, X11
	VADDSD  X11, X2, X2
	VADDSD  16(DX), X2, X2
	VMOVSD  X2, 16(DI)
	VHADDPD X3, X3, X3
	VHADDPD X12, X12, X12
	VADDSD  X12, X3, X3
	VADDSD  24(DX), X3, X3
	VMOVSD  X3, 24(DI)
	LEAQ    (BX)(R10*1), SI
	ADDQ    $32, DI
	ADDQ    $32, DX
	SUBQ    $4, R9
	JMP     quads

single:
	TESTQ  R9, R9
	JZ     done
	VXORPD Y0, Y0, Y0
	XORQ   CX, CX

singlevec:
	CMPQ    CX, R11
	JGE     singlerest
	VMOVUPD (R8)(CX*1), Y4
	VMULPD  (SI)(CX*1), Y4, Y5
	VADDPD  Y5, Y0, Y0
	ADDQ    $32, CX
	JMP     singlevec

singlerest:
	VEXTRACTF128 $1, Y0, X9

singlescalar:
	CMPQ   CX, R10
	JGE    singlesum
	VMOVSD (R8)(CX*1), X4
	VMULSD (SI)(CX*1), X4, X5
	VADDSD X5, X0, X0
	ADDQ   $8, CX
	JMP    singlescalar

singlesum:
	VHADDPD X0, X0, X0
	VHADDPD X9, X9, X9
	VADDSD  X9, X0, X0
	VADDSD  (DX), X0, X0
	VMOVSD  X0, (DI)
	ADDQ    R10, SI
	ADDQ    $8, DI
	ADDQ    $8, DX
	DECQ    R9
	JMP     single

done:
	VZEROUPPER
	RET

// Tanh's clamp and coefficients (see tanhGeneric).
DATA tanhConst<>+0(SB)/8, $9.0
DATA tanhConst<>+8(SB)/8, $-9.0
DATA tanhConst<>+16(SB)/8, $4.89352455891786e-03  // p: c1
DATA tanhConst<>+24(SB)/8, $6.37261928875436e-04  // c3
DATA tanhConst<>+32(SB)/8, $1.48572235717979e-05  // c5
DATA tanhConst<>+40(SB)/8, $5.12229709037114e-08  // c7
DATA tanhConst<>+48(SB)/8, $-8.60467152213735e-11 // c9
DATA tanhConst<>+56(SB)/8, $2.00018790482477e-13  // c11
DATA tanhConst<>+64(SB)/8, $-2.76076847742355e-16 // c13
DATA tanhConst<>+72(SB)/8, $4.89352518554385e-03  // q: d0
DATA tanhConst<>+80(SB)/8, $2.26843463243900e-03  // d2
DATA tanhConst<>+88(SB)/8, $1.18534705686654e-04  // d4
DATA tanhConst<>+96(SB)/8, $1.19825839466702e-06  // d6
GLOBL tanhConst<>(SB), RODATA|NOPTR, $104

// TANH4 replaces the four lanes of X by their Tanh, as tanhGeneric
// computes it (Estrin's scheme), using Y11..Y15 as scratch and the clamp
// bounds in Y8 (c) and Y9 (-c). The clamp puts x second in VMINPD/VMAXPD,
// which return their second operand when either is NaN, so that a NaN
// passes through as in Go.
#define TANH4(X, X2, X4, P, Q) \
	VMINPD       X, Y8, X \
	VMAXPD       X, Y9, X \
	VMULPD       X, X, X2 \
	VMULPD       X2, X2, X4 \
	VBROADCASTSD tanhConst<>+24(SB), P \
	VMULPD       X2, P, P \
	VBROADCASTSD tanhConst<>+16(SB), Y15 \
	VADDPD       Y15, P, P \
	VBROADCASTSD tanhConst<>+40(SB), Q \
	VMULPD       X2, Q, Q \
	VBROADCASTSD tanhConst<>+32(SB), Y15 \
	VADDPD       Y15, Q, Q \
	VMULPD       X4, Q, Q \
	VADDPD       Q, P, P \
	VBROADCASTSD tanhConst<>+56(SB), Q \
	VMULPD       X2, Q, Q \
	VBROADCASTSD tanhConst<>+48(SB), Y15 \
	VADDPD       Y15, Q, Q \
	VBROADCASTSD tanhConst<>+64(SB), Y15 \
	VMULPD       X4, Y15, Y15 \
	VADDPD       Y15, Q, Q \
	VMULPD       X4, X4, Y15 \
	VMULPD       Y15, Q, Q \
	VADDPD       Q, P, P \
	VBROADCASTSD tanhConst<>+80(SB), Q \
	VMULPD       X2, Q, Q \
	VBROADCASTSD tanhConst<>+72(SB), Y15 \
	VADDPD       Y15, Q, Q \
	VBROADCASTSD tanhConst<>+96(SB), Y15 \
	VMULPD       X2, Y15, Y15 \
	VBROADCASTSD tanhConst<>+88(SB), X2 \
	VADDPD       X2, Y15, Y15 \
	VMULPD       X4, Y15, Y15 \
	VADDPD       Y15, Q, Q \
	VMULPD       P, X, X \
	VDIVPD       Q, X, X

// func tanhAVX2(z *float64, n int)
//
// Eight elements at a time (two groups of four side by side, for
// instruction-level parallelism), then four.
TEXT ·tanhAVX2(SB), NOSPLIT, $0-16
	MOVQ         z+0(FP), DI
	MOVQ         n+8(FP), CX
	VBROADCASTSD tanhConst<>+0(SB), Y8
	VBROADCASTSD tanhConst<>+8(SB), Y9

eight:
	CMPQ    CX, $8
	JLT     four
	VMOVUPD (DI), Y0
	VMOVUPD 32(DI), Y4
	TANH4(Y0, Y1, Y2, Y3, Y10)
	TANH4(Y4, Y5, Y6, Y7, Y11)
	VMOVUPD Y0, (DI)
	VMOVUPD Y4, 32(DI)
	ADDQ    $64, DI
	SUBQ    $8, CX
	JMP     eight

four:
	TESTQ   CX, CX
	JZ      tanhdone
	VMOVUPD (DI), Y0
	TANH4(Y0, Y1, Y2, Y3, Y10)
	VMOVUPD Y0, (DI)

tanhdone:
	VZEROUPPER
	RET
