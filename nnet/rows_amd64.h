// The bodies of the accumulators' row kernels, int32 (kernels32_amd64.s)
// and int16 (kernels16_amd64.s) alike: a Y register holds 32 bytes, eight
// int32 or sixteen int16 lanes, and only the instruction differs. Each body
// reads its arguments, n elements of 1<<SHIFT bytes (n*(1<<SHIFT) a
// positive multiple of 32), and goes 64 bytes (two registers) at a time,
// then 32 for an odd register. Go's operand order: the destination is
// last.

// ADDSUBROWS is the body of func(dst, src, p, m *T, n int): dst[i] =
// src[i] ADD p[i] SUB m[i], ADD and SUB being VPADDD and VPSUBD or VPADDW
// and VPSUBW, which wrap.
#define ADDSUBROWS(ADD, SUB, SHIFT) \
	MOVQ    dst+0(FP), DI \
	MOVQ    src+8(FP), SI \
	MOVQ    p+16(FP), DX \
	MOVQ    m+24(FP), R8 \
	MOVQ    n+32(FP), CX \
	SHLQ    $SHIFT, CX \
	XORQ    AX, AX \
addsub64: \
	CMPQ    CX, $64 \
	JLT     addsub32 \
	VMOVDQU (SI)(AX*1), Y0 \
	VMOVDQU 32(SI)(AX*1), Y1 \
	ADD     (DX)(AX*1), Y0, Y0 \
	ADD     32(DX)(AX*1), Y1, Y1 \
	SUB     (R8)(AX*1), Y0, Y0 \
	SUB     32(R8)(AX*1), Y1, Y1 \
	VMOVDQU Y0, (DI)(AX*1) \
	VMOVDQU Y1, 32(DI)(AX*1) \
	ADDQ    $64, AX \
	SUBQ    $64, CX \
	JMP     addsub64 \
addsub32: \
	TESTQ   CX, CX \
	JZ      addsubdone \
	VMOVDQU (SI)(AX*1), Y0 \
	ADD     (DX)(AX*1), Y0, Y0 \
	SUB     (R8)(AX*1), Y0, Y0 \
	VMOVDQU Y0, (DI)(AX*1) \
addsubdone: \
	VZEROUPPER \
	RET

// ROWS is the body of func(dst, src, r *T, n int): dst[i] = src[i] OP
// r[i], OP being one of VPADDD, VPSUBD, VPADDW and VPSUBW.
#define ROWS(OP, SHIFT) \
	MOVQ    dst+0(FP), DI \
	MOVQ    src+8(FP), SI \
	MOVQ    r+16(FP), DX \
	MOVQ    n+24(FP), CX \
	SHLQ    $SHIFT, CX \
	XORQ    AX, AX \
rows64: \
	CMPQ    CX, $64 \
	JLT     rows32 \
	VMOVDQU (SI)(AX*1), Y0 \
	VMOVDQU 32(SI)(AX*1), Y1 \
	OP      (DX)(AX*1), Y0, Y0 \
	OP      32(DX)(AX*1), Y1, Y1 \
	VMOVDQU Y0, (DI)(AX*1) \
	VMOVDQU Y1, 32(DI)(AX*1) \
	ADDQ    $64, AX \
	SUBQ    $64, CX \
	JMP     rows64 \
rows32: \
	TESTQ   CX, CX \
	JZ      rowsdone \
	VMOVDQU (SI)(AX*1), Y0 \
	OP      (DX)(AX*1), Y0, Y0 \
	VMOVDQU Y0, (DI)(AX*1) \
rowsdone: \
	VZEROUPPER \
	RET
