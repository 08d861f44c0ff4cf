/* GENERATED from src/montu/isa/instructions.yaml and soc.yaml by `python3 -m montu.isa.generate`; do not edit. */
#ifndef MONTU_ISA_H
#define MONTU_ISA_H

/* The unit's instruction word: slots (lsb, bits) */
#define MONTU_SLOT_OP_LSB 24
#define MONTU_SLOT_OP_BITS 8
#define MONTU_SLOT_RD_LSB 19
#define MONTU_SLOT_RD_BITS 5
#define MONTU_SLOT_RA_LSB 14
#define MONTU_SLOT_RA_BITS 5
#define MONTU_SLOT_RB_LSB 9
#define MONTU_SLOT_RB_BITS 5
#define MONTU_SLOT_F_LSB 8
#define MONTU_SLOT_F_BITS 1
#define MONTU_SLOT_IMM_LSB 0
#define MONTU_SLOT_IMM_BITS 8

/* Opcodes */
#define MONTU_OP_NOP 0x00u
#define MONTU_OP_SETMMI 0x01u
#define MONTU_OP_WMMI 0x02u
#define MONTU_OP_RMMI 0x03u
#define MONTU_OP_SETMOD 0x04u
#define MONTU_OP_STARTMMI 0x10u
#define MONTU_OP_MMX 0x1Eu
#define MONTU_OP_MMQ 0x25u
#define MONTU_OP_MINV 0x1Du
#define MONTU_OP_MADD 0x11u
#define MONTU_OP_MSUB 0x12u
#define MONTU_OP_MDBL 0x13u
#define MONTU_OP_MLIN 0x24u
#define MONTU_OP_ADD 0x14u
#define MONTU_OP_SUB 0x15u
#define MONTU_OP_SADD 0x16u
#define MONTU_OP_SSUB 0x17u
#define MONTU_OP_SHL1 0x18u
#define MONTU_OP_SHR1 0x19u
#define MONTU_OP_SHLW 0x1Au
#define MONTU_OP_SHRW 0x1Bu
#define MONTU_OP_SHLX 0x1Fu
#define MONTU_OP_CMP 0x1Cu
#define MONTU_OP_MOV 0x20u
#define MONTU_OP_LDZ 0x21u
#define MONTU_OP_LDONE 0x22u
#define MONTU_OP_CSWAP 0x23u
#define MONTU_OP_WIPE 0x3Fu

/* Unit error codes (a response's err) */
#define MONTU_E_OK 0  /* no error */
#define MONTU_E_BAD_OPCODE 1  /* the op field names no instruction */
#define MONTU_E_BAD_REG 2  /* a register field the instruction uses is >= NumRegs */
#define MONTU_E_BAD_LENGTH 3  /* SETMMI length k is 0 or k*64 > MaxBits */
#define MONTU_E_EVEN_MODULUS 4  /* SETMOD: modulus even (GF(p)) or constant term 0 (GF(2^m)) */
#define MONTU_E_NO_MODULUS 5  /* a modular instruction ran without a valid SETMOD since the last SETMMI/WIPE or since the modulus register was written */
#define MONTU_E_NO_INVERSE 6  /* MINV: the modulus is 0, the value is 0, both are even, or their gcd is not 1 */
#define MONTU_E_BAD_IMM 7  /* SHLX/MMX: the window width imm is not in 1 .. 5 */
#define MONTU_E_BAD_PAIR 8  /* MMQ: a product is already queued */

/* Flags (a response's flags) */
#define MONTU_FLAG_C (1u << 0)
#define MONTU_FLAG_EQ (1u << 1)
#define MONTU_FLAG_LT (1u << 2)
#define MONTU_FLAG_NEG (1u << 3)

/* An instruction word from its slots (values are masked to their slots) */
#define MONTU_FIELD(value, slot) \
  (((unsigned)(value) & ((1u << MONTU_SLOT_##slot##_BITS) - 1u)) << MONTU_SLOT_##slot##_LSB)
#define MONTU_INSN(op, rd, ra, rb, f, imm) \
  (MONTU_FIELD(MONTU_OP_##op, OP) | MONTU_FIELD(rd, RD) | MONTU_FIELD(ra, RA) | \
   MONTU_FIELD(rb, RB) | MONTU_FIELD(f, F) | MONTU_FIELD(imm, IMM))

/* The SoC's custom instructions (R-type, CUSTOM_2) */
#define MONTU_MX_OPCODE 0x5B
#define MONTU_MX_FUNCT7 0
#define MONTU_MX_CMD 0  /* Send rs1[31:0] (a Montu instruction word) with the data word rs2 to the unit, when the instruction retires. */
#define MONTU_MX_RD 1  /* rd = the response data of command number rs1, at once (0 unless ST says it is answered). */
#define MONTU_MX_ST 2  /* rd = the status word of command number rs1, at once (ADAPTER_ERR = PENDING until it is answered). */
#define MONTU_MX_CNT 3  /* rd = counter rs1 (see counters). */
#define MONTU_MX_CLR 4  /* Clear the sticky error once every earlier command is answered; its response data is the status word before (error fields only). */
#define MONTU_MX_COUNTER_COMMITTED 0  /* commands retired so far (the next command's number) */
#define MONTU_MX_COUNTER_ANSWERED 1  /* commands answered so far */
#define MONTU_MX_COUNTER_UNIT_CYCLES 2  /* the sum of the answered commands' cycle counts (their response's cycles: the instruction table's formulas) */
#define MONTU_MX_COUNTER_FIRST_ERROR 3  /* number of the first command answered with an error since CLR (all ones: none) */
#define MONTU_MX_COUNTER_ISSUED 4  /* CMD/CLR instructions that reached the issue port, squashed ones included (ISSUED - COMMITTED: how many never retired) */
#define MONTU_MX_E_OK 0  /* answered; RD returns its data */
#define MONTU_MX_E_STALE 1  /* the command is older than the last ring_depth answers */
#define MONTU_MX_E_PENDING 2  /* the command is not answered yet (or not retired yet) */
#define MONTU_MX_E_NO_COUNTER 3  /* CNT: no counter with that index */
#define MONTU_STATUS_ERR(s) ((unsigned)(((s) >> 0) & 0xFu))
#define MONTU_STATUS_FLAGS(s) ((unsigned)(((s) >> 4) & 0xFu))
#define MONTU_STATUS_ADAPTER_ERR(s) ((unsigned)(((s) >> 8) & 0xFu))
#define MONTU_STATUS_STICKY_ERR(s) ((unsigned)(((s) >> 12) & 0xFu))
#define MONTU_STATUS_CYCLES(s) ((unsigned)(((s) >> 32) & 0xFFFFFFFFu))
#define MONTU_MX_RING_DEPTH 16

#endif
