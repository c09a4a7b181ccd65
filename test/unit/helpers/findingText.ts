/** Everything a finding says: its headline and the detail behind it (what --verbose and related information show). */
export function said(f: { message: string; detail?: string }): string {
  return f.detail ? `${f.message} ${f.detail}` : f.message;
}
