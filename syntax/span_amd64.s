//go:build !purego

#include "textflag.h"

// func spanSSSE3(nib *[48]byte, p *byte, n int, esc int, escOut *[256]uint8) int
//
// The length of the longest prefix of p[:n], in whole 16-byte blocks, whose
// bytes are all in the set that nib describes (see nibbleTable) or in
// triplets (esc, then two bytes b with escOut[b] == 0; esc 256 for none),
// plus the offset of the first byte not in it within the block that has
// one. Per
// block: split the bytes into nibbles, look the low nibble up in the rows of
// high nibbles 0-7 and 8-15 (PSHUFB), keep the row of each byte's half,
// test the bit of its high nibble, and PMOVMSKB the bytes that fail.
TEXT ·spanSSSE3(SB), NOSPLIT, $0-48
	MOVQ  nib+0(FP), AX
	MOVQ  p+8(FP), SI
	MOVQ  n+16(FP), CX
	MOVQ  esc+24(FP), R9
	MOVQ  escOut+32(FP), R8
	MOVOU 0(AX), X8                // rows of high nibbles 0-7, by low nibble
	MOVOU 16(AX), X9               // rows of high nibbles 8-15
	MOVOU 32(AX), X10              // 1<<(h&7) for each high nibble h
	MOVQ  $0x0F0F0F0F0F0F0F0F, DX
	MOVQ  DX, X11
	PUNPCKLQDQ X11, X11            // 0x0F in every byte
	PXOR  X12, X12                 // zero
	XORQ  BX, BX                   // offset

loop:
	MOVQ  CX, DX
	SUBQ  BX, DX
	CMPQ  DX, $16
	JLT   done
	MOVOU (SI)(BX*1), X0           // 16 bytes
	MOVO  X0, X1
	PAND  X11, X1                  // low nibbles
	MOVO  X0, X2
	PSRLW $4, X2
	PAND  X11, X2                  // high nibbles
	MOVO  X8, X3
	PSHUFB X1, X3                  // row 0-7 of each low nibble
	MOVO  X9, X4
	PSHUFB X1, X4                  // row 8-15
	MOVO  X10, X5
	PSHUFB X2, X5                  // the bit of each high nibble
	MOVO  X12, X6
	PCMPGTB X0, X6                 // 0xFF where the byte is 0x80 or above
	PAND  X6, X4                   // row 8-15 there
	PANDN X3, X6                   // row 0-7 elsewhere
	POR   X4, X6
	PAND  X5, X6                   // the byte's bit
	PCMPEQB X12, X6                // 0xFF where it is not set: not in the set
	PMOVMSKB X6, DX
	TESTL DX, DX
	JNZ   found
	ADDQ  $16, BX
	JMP   loop

found:
	BSFL  DX, DX
	ADDQ  DX, BX
	// A triplet goes on with the run: esc, then two bytes of its set.
	MOVQ  CX, DX
	SUBQ  BX, DX
	CMPQ  DX, $3
	JLT   done
	MOVBQZX (SI)(BX*1), DX
	CMPQ  DX, R9
	JNE   done
	MOVBQZX 1(SI)(BX*1), DX
	MOVBQZX (R8)(DX*1), DI
	MOVBQZX 2(SI)(BX*1), DX
	MOVBQZX (R8)(DX*1), DX
	ORQ   DI, DX
	JNZ   done
	ADDQ  $3, BX
	JMP   loop

done:
	MOVQ  BX, ret+40(FP)
	RET

// func cpuidECX1() uint32
TEXT ·cpuidECX1(SB), NOSPLIT, $0-4
	MOVL  $1, AX
	XORL  CX, CX
	CPUID
	MOVL  CX, ret+0(FP)
	RET
