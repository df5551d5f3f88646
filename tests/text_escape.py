"""A name as the command's text output writes it (cli_text_escape_into in
src/cli/report.c): control characters and DEL as \\a \\b \\t \\n \\v \\f \\r
or \\xNN, C1 controls and U+2028/U+2029 (line breaks for splitlines()) as
\\uNNNN; everything else as it is."""

_NAMED = {7: "\\a", 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r"}


def text_escaped(s):
    out = []
    for c in s:
        cp = ord(c)
        if cp < 0x20 or cp == 0x7f:
            out.append(_NAMED.get(cp) or "\\x%02x" % cp)
        elif 0x80 <= cp <= 0x9f or cp in (0x2028, 0x2029):
            out.append("\\u%04x" % cp)
        else:
            out.append(c)
    return "".join(out)
