/** Text and attribute values escaped for XML, and the characters XML 1.0 cannot hold dropped (an API value may carry them). */
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const SPECIAL = /[&<>"]/;

export function escapeXml(text: string): string {
  const clean = text.replace(INVALID_XML, '');
  if (!SPECIAL.test(clean)) return clean;
  return clean.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
