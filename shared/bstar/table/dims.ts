/**
 * The rotary dims the proven table covers: every rotary dim of the shipped catalog
 * (shared/config/catalog/models.json: head_dim × partial_rotary_factor, qk_rope_head_dim, rotary_dim;
 * 128 ×102 models, 64 ×21, 256 ×8, 32 ×6, 96 ×5, 16 ×3, 100, 20, 80) and common architectures outside
 * it (GPT-NeoX-20B rotates 24 = 96 × 0.25; GPT-J 64; Phi-2 32). Most used first: a generator run that
 * stops early has covered the common ones. test/unit/provenTable.test.ts checks the catalog's dims are all here.
 */
export const TABLE_DIMS: readonly number[] = [128, 64, 256, 32, 96, 80, 100, 16, 20, 24];
