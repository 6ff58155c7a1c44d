/** The review page's style (inline, under the response's nonce: the page loads nothing). */
export const PAGE_STYLE = `
:root { font-family: system-ui, sans-serif; font-size: 14px; color: #1f2328; background: #fff; }
body { margin: 0 1rem 2rem; }
h1 { font-size: 1.3rem; margin: .8rem 0 .3rem; }
header p { margin: .3rem 0; }
#done { margin-left: 1rem; font-weight: 600; }
.keys { color: #57606a; font-size: .9rem; }
kbd { border: 1px solid #d0d7de; border-radius: 3px; padding: 0 .25rem; background: #f6f8fa; font-size: .85rem; }
.filter, .toolbar { display: flex; gap: .8rem; align-items: center; flex-wrap: wrap; margin: .5rem 0; }
#note { width: 22rem; }
#status { color: #0b5394; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid #d8dee4; padding: .35rem .4rem; vertical-align: top; text-align: left; }
th { background: #f6f8fa; position: sticky; top: 0; }
tr.current { outline: 2px solid #0969da; outline-offset: -2px; background: #f0f6ff; }
tr.selected { background: #fff8c5; }
.names .name, .names .holder { font-weight: 600; }
.why { margin: .2rem 0 0 1rem; padding: 0; color: #57606a; font-size: .85rem; }
.verdict, .status, .request, .branch, .earlier, .note { color: #57606a; font-size: .85rem; }
.earlier { margin: 0; padding-left: 1rem; }
.changed { color: #9a3412; font-size: .85rem; }
.amount { text-align: right; white-space: nowrap; }
/* A name of hundreds of characters without a space wraps inside its cell: the buttons stay on screen. */
.names, .history, .standing { overflow-wrap: anywhere; }
.account { white-space: nowrap; }
[data-decision="PAY"] { color: #1a7f4b; font-weight: 600; }
[data-decision="REVIEW"] { color: #9a6700; font-weight: 600; }
[data-decision="HOLD"] { color: #c62828; font-weight: 600; }
.msg { font-size: .85rem; }
.msg[data-ok="false"] { color: #c62828; }
.msg[data-ok="true"] { color: #1a7f4b; }
.none, .off { color: #8c959f; }
.pager { margin: 1rem 0; display: flex; gap: 2rem; }
.sr { position: absolute; left: -10000px; }
.finished { font-size: 1.2rem; margin: 3rem 0; }
`;
