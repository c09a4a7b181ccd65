/**
 * The WGSL f_b screen moved to shared/gpu/fbScreen.ts, where it takes any WebGPU device (Dawn's here,
 * the browser's in the web build); Node's modules keep importing it from here.
 */
export * from '../gpu/fbScreen';
