#!/usr/bin/env python3
"""Cut Noto Sans CJK SC down to the characters the Chinese figures draw.

The Chinese figures (figures/zh/) are measured with this subset
(src/figures/font/NotoSansCJKsc-subset.otf): printable ASCII, every
non-ASCII character of the figures' tables (src/edition/figures/) and
every non-ASCII character the figure code writes (src/figures/, the
symbols both editions draw). Run it again after adding a figure string;
a test names this script when a character is missing.

Needs fontTools (`pip install fonttools`) and the Debian package
fonts-noto-cjk (`apt-get install fonts-noto-cjk`), or pass the path of
NotoSansCJK-Regular.ttc (or NotoSansCJKsc-Regular.otf) as the argument.
"""

import pathlib
import sys

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "src/figures/font/NotoSansCJKsc-subset.otf"
SOURCE = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
# the source folders whose non-ASCII characters the subset keeps
FOLDERS = ["src/edition/figures", "src/figures"]


def characters():
    chars = {chr(c) for c in range(0x20, 0x7F)}
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.rs")):
            chars |= {c for c in path.read_text(encoding="utf-8") if ord(c) > 0x7F}
    return "".join(sorted(chars))


def font(path):
    if path.endswith(".ttc"):
        for f in TTCollection(path).fonts:
            if f["name"].getDebugName(4) == "Noto Sans CJK SC":
                return f
        sys.exit(f"{path} has no Noto Sans CJK SC")
    return TTFont(path)


def like_dejavu(f):
    """Give `f` DejaVu Sans's ratio of line height to em.

    plotters measures text with ab_glyph at a scale that is the font's line
    height (hhea ascent − descent), and writes font-size = size / 1.24; with
    the same ratio as DejaVu Sans (1.164), a Chinese text is measured as
    wide as the English measurement is for its own font: a little wider
    than drawn. Only the measurement reads these metrics: a browser draws
    with its own copy of the family."""
    dejavu = TTFont(ROOT / "src/figures/font/DejaVuSans.ttf")
    ratio = (dejavu["hhea"].ascent - dejavu["hhea"].descent) / dejavu["head"].unitsPerEm
    hhea, em = f["hhea"], f["head"].unitsPerEm
    scale = ratio * em / (hhea.ascent - hhea.descent)
    hhea.ascent = round(hhea.ascent * scale)
    hhea.descent = round(hhea.descent * scale)


def main():
    f = font(sys.argv[1] if len(sys.argv) > 1 else SOURCE)
    options = subset.Options()
    options.layout_features = []  # measurement reads advances and kerning only
    options.name_IDs = ["*"]  # keep the copyright and licence records
    options.notdef_outline = False  # a missing character draws nothing
    options.hinting = False
    options.desubroutinize = True
    sub = subset.Subsetter(options)
    sub.populate(text=characters())
    sub.subset(f)
    like_dejavu(f)
    f.flavor = None
    f.save(OUT)
    print(f"{OUT.relative_to(ROOT)}: {OUT.stat().st_size} bytes")


if __name__ == "__main__":
    main()
