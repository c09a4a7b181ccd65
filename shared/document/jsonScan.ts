/**
 * One step of a bracket scan over JSON(C) text that is not parsed: strings and comments are skipped so
 * their brackets do not count. Shared by the nesting guard (parseJson.ts) and the label-map finder
 * (labelMaps.ts).
 */

/** At a string or comment start, the offset of its last character; otherwise `i` unchanged. */
export function skipStringOrComment(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === 0x22) {
    for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    return i;
  }
  if (c === 0x2f && text.charCodeAt(i + 1) === 0x2f) {
    const end = text.indexOf('\n', i);
    return end < 0 ? text.length : end;
  }
  if (c === 0x2f && text.charCodeAt(i + 1) === 0x2a) {
    const end = text.indexOf('*/', i + 2);
    return end < 0 ? text.length : end + 1;
  }
  return i;
}
