//go:build !purego

#include "textflag.h"

// func spanSSSE3(nib *[96]byte, p *byte, n int, esc int, escOut *[256]uint8) int
//
// The length of the longest prefix of p[:n], in whole 16-byte blocks, made
// of bytes of the set S that nib[0:48] describes (see nibbleTable) and of
// triplets: esc, then two bytes of the set X that nib[48:96] describes
// (escOut is X's complement, a byte per byte value; esc is 256 for none),
// plus the offset of the first byte that is neither within the block that
// has one, or where a triplet is cut short or holds a byte outside X.
//
// Per block: split the bytes into nibbles, look the low nibble up in the
// rows of high nibbles 0-7 and 8-15 (PSHUFB), keep the row of each byte's
// half, test the bit of its high nibble, and PMOVMSKB the bytes not in S.
// A block with some is tested as a whole for triplets: the bytes not in S
// must be esc, or the two bytes after an esc, and those must be in X (esc
// is in neither S nor X, so every esc starts a triplet). A triplet that
// crosses the block's end starts the next block. Otherwise the first byte
// not in S ends the run, unless a triplet starts there.
TEXT ·spanSSSE3(SB), NOSPLIT, $0-48
	MOVQ  nib+0(FP), AX
	MOVQ  p+8(FP), SI
	MOVQ  n+16(FP), CX
	MOVQ  esc+24(FP), R9
	MOVQ  escOut+32(FP), R8
	MOVOU 0(AX), X8                // S: rows of high nibbles 0-7, by low nibble
	MOVOU 16(AX), X9               // S: rows of high nibbles 8-15
	MOVOU 32(AX), X10              // 1<<(h&7) for each high nibble h
	MOVQ  $0x0F0F0F0F0F0F0F0F, DX
	MOVQ  DX, X11
	PUNPCKLQDQ X11, X11            // 0x0F in every byte
	PXOR  X12, X12                 // zero
	MOVQ  R9, X13
	PSHUFB X12, X13                // esc's low byte in every byte
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
	PCMPEQB X12, X6                // 0xFF where it is not set: not in S
	PMOVMSKB X6, DX
	TESTL DX, DX
	JNZ   triplets
	ADDQ  $16, BX
	JMP   loop

triplets:
	CMPQ  R9, $256
	JEQ   found
	MOVO  X0, X6
	PCMPEQB X13, X6
	PMOVMSKB X6, R10               // esc
	TESTL R10, R10
	JZ    found
	// The bytes not in X, as for S with X's rows.
	MOVOU 48(AX), X3
	PSHUFB X1, X3
	MOVOU 64(AX), X4
	PSHUFB X1, X4
	MOVOU 80(AX), X5
	PSHUFB X2, X5
	MOVO  X12, X6
	PCMPGTB X0, X6
	PAND  X6, X4
	PANDN X3, X6
	POR   X4, X6
	PAND  X5, X6
	PCMPEQB X12, X6
	PMOVMSKB X6, R11               // not in X
	// An esc at 14 or 15 starts a triplet that crosses the block's end:
	// the block ends there (DI, and limit R12, its bytes).
	MOVL  $16, DI
	MOVL  $0xFFFF, R12
	MOVL  R10, R13
	ANDL  $0xC000, R13
	JZ    whole
	BSFL  R13, DI
	MOVL  $0x7FFF, R12
	CMPL  DI, $14
	JNE   whole
	MOVL  $0x3FFF, R12

whole:
	// need: the two bytes after each esc of the block.
	MOVL  R10, R13
	ANDL  R12, R13
	MOVL  R13, R8                  // R8 is escOut again in found
	SHLL  $1, R13
	SHLL  $2, R8
	ORL   R8, R13
	ANDL  $0xFFFF, R13
	// bad: a byte not in S that is neither esc nor needed, or a needed
	// byte not in X.
	ORL   R13, R10
	NOTL  R10
	ANDL  DX, R10
	ANDL  R12, R10
	ANDL  R13, R11
	ORL   R11, R10
	JNZ   found
	ADDQ  DI, BX
	JMP   loop

found:
	MOVQ  escOut+32(FP), R8
	BSFL  DX, DX
	ADDQ  DX, BX
	// A triplet goes on with the run: esc, then two bytes of X.
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
