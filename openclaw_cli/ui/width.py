"""Terminal display width of text, measured per grapheme cluster as OpenClaw 2026.9's tables measure it."""

from __future__ import annotations

import re
from functools import lru_cache

import regex

_ASCII = re.compile(r"[ -~]*")
_CLUSTER = regex.compile(r"\X")
_ZERO_WIDTH = regex.compile(
    r"[\p{Default_Ignorable_Code_Point}\p{Cc}\p{Cf}\p{Mn}\p{Me}\p{Cs}]+")
_PICTOGRAPHIC = regex.compile(r"\p{Extended_Pictographic}")
_PRESENTATION = regex.compile(r"\p{Emoji_Presentation}")
_EMOJI = regex.compile(r"\p{Emoji}")
_MODIFIER = regex.compile(r"\p{Emoji_Modifier}")
_MODIFIER_BASE = regex.compile(r"\p{Emoji_Modifier_Base}")
_SPACING_MARK = regex.compile(r"\p{Mc}")
_KEYCAP = regex.compile(r"[0-9#*]\ufe0f?\u20e3")
_WIDE = regex.compile(r"(?![\p{Cn}])[\p{ea=W}\p{ea=F}]")
_ANSI = regex.compile(r"(?:\x1b\][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c))"
                      r"|[\x1b\x9b][\[\]()#;?]*(?:\d{1,4}(?:[;:]\d{0,4})*)?[\dA-PR-TZcf-nq-uy=><~]")
_ZWJ = "\u200d"
# The regions with an emoji flag (Unicode's RGI flag sequences); another pair of letters is two narrow letters.
_FLAG_REGIONS = frozenset((
    "AC AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR "
    "BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CP CQ CR CU CV CW CX CY CZ DE DG DJ DK DM "
    "DO DZ EA EC EE EG EH ER ES ET EU FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS "
    "GT GU GW GY HK HM HN HR HT HU IC ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP "
    "KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT "
    "MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW "
    "PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TA TC TD TF "
    "TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM UN US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT "
    "ZA ZM ZW"
).split())
_TAG_FLAGS = frozenset({"gbeng", "gbsct", "gbwls"})
# Hangul fillers are measured as the letters terminals draw in their place; lone surrogates as U+FFFD.
_FILLERS = regex.compile(r"[\u115f\u3164\uffa0\ud800-\udfff]")
_SHOWN_AS = {"\u115f": "\u1100", "\u3164": "\u3131", "\uffa0": "\uffca"}


def clusters(text: str) -> list[str]:
    """The grapheme clusters of `text` (extended, as `Intl.Segmenter` splits them)."""
    return _CLUSTER.findall(text)


def text_width(text: str) -> int:
    """Columns `text` takes at a terminal: wide characters and emoji two, marks and joiners none."""
    if _ASCII.fullmatch(text):
        return len(text)
    if "\x1b" in text or "\x9b" in text:
        text = _ANSI.sub("", text)
    if _FILLERS.search(text):
        text = _FILLERS.sub(lambda m: _SHOWN_AS.get(m.group(), "\ufffd"), text)
    return sum(cluster_width(c) for c in _CLUSTER.findall(text)) + text.count("\t")


@lru_cache(maxsize=4096)
def cluster_width(cluster: str) -> int:
    """One grapheme cluster's columns (string-width's rules; a tab counts in `text_width`)."""
    if _ZERO_WIDTH.fullmatch(cluster):
        return 0
    if _is_emoji(cluster):
        return 2
    visible = _ZERO_WIDTH.sub("", cluster, count=1) if _ZERO_WIDTH.match(cluster) else cluster
    hangul = _hangul_width(visible)
    if hangul is not None:
        return hangul
    return _east_asian(visible[0]) + sum(
        _east_asian(ch) for ch in visible[1:] if _SPACING_MARK.match(ch) or "\uff00" <= ch <= "\uffef")


def _is_emoji(cluster: str) -> bool:
    """An emoji cluster shown two columns wide: a presentation emoji (with a skin tone), a text
    emoji asked for in emoji style, a flag, a keycap, or a joined sequence of two or more."""
    if _ZWJ in cluster:
        return len(_PICTOGRAPHIC.findall(cluster)) >= 2
    if _KEYCAP.fullmatch(cluster):
        return True
    base, rest = cluster[0], cluster[1:]
    if "\U0001F1E6" <= base <= "\U0001F1FF":
        letters = "".join(chr(ord(ch) - 0x1F1E6 + 65) if "\U0001F1E6" <= ch <= "\U0001F1FF" else "?" for ch in cluster)
        return letters in _FLAG_REGIONS
    if base == "\U0001F3F4" and rest[-1:] == "\U000E007F":
        return "".join(chr(ord(ch) - 0xE0000) if "\U000E0020" <= ch <= "\U000E007E" else "?"
                       for ch in rest[:-1]) in _TAG_FLAGS
    if rest == "":
        return bool(_PRESENTATION.match(base))
    if _MODIFIER.fullmatch(rest):
        return bool(_MODIFIER_BASE.match(base))
    return rest == "\ufe0f" and not base.isascii() and bool(_EMOJI.match(base))


def _east_asian(ch: str) -> int:
    """Two columns for a wide or fullwidth character (current Unicode; unassigned ones narrow)."""
    return 2 if _WIDE.match(ch) else 1


def _jamo(cp: int) -> str:
    if 0x1100 <= cp <= 0x115F or 0xA960 <= cp <= 0xA97C:
        return "L"
    if 0x1160 <= cp <= 0x11A7 or 0xD7B0 <= cp <= 0xD7C6:
        return "V"
    if 0x11A8 <= cp <= 0x11FF or 0xD7CB <= cp <= 0xD7FB:
        return "T"
    return ""


def _hangul_width(visible: str) -> int | None:
    """Conjoining jamo: each leading+vowel(+trailing) syllable two columns; None when not jamo."""
    cps = [ord(ch) for ch in visible if not _ZERO_WIDTH.fullmatch(ch)]
    if not cps or not _jamo(cps[0]):
        return None
    width, i = 0, 0
    while i < len(cps):
        kind = _jamo(cps[i])
        if not kind:
            return width + sum(_east_asian(chr(cp)) for cp in cps[i:])
        if kind == "L" and i + 1 < len(cps) and _jamo(cps[i + 1]) == "V":
            width += 2
            i += 3 if i + 2 < len(cps) and _jamo(cps[i + 2]) == "T" else 2
            continue
        width += _east_asian(chr(cps[i]))
        i += 1
    return width
