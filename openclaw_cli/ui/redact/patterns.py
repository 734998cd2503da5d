"""Console redaction data: OpenClaw's JavaScript regex sources, key sets, Unicode tables."""

from __future__ import annotations

# Masking.
MIN_MASK_LENGTH = 18
MASK_KEEP_START = 6
MASK_KEEP_END = 4

# Registered exact values.
MIN_SECRET_VALUE_LENGTH = 6
MAX_SECRET_VALUES = 512

# Long inputs are replaced chunk by chunk (lengths in UTF-16 code units).
CHUNK_THRESHOLD = 32768
CHUNK_SIZE = 16384

_PAYMENT_ENV_KEYS = (
    r"CARD[_-]?NUMBER|CARD[_-]?CVC|CARD[_-]?CVV|CVC|CVV|SECURITY[_-]?CODE"
    r"|PAYMENT[_-]?CREDENTIAL|SHARED[_-]?PAYMENT[_-]?TOKEN"
)
_PAYMENT_QUERY_KEYS = (
    r"card[-_]?number|card[-_]?cvc|card[-_]?cvv|cvc|cvv|security[-_]?code"
    r"|payment[-_]?credential|shared[-_]?payment[-_]?token"
)
_PAYMENT_JSON_KEYS = (
    r"cardNumber|card_number|cardCvc|card_cvc|cardCvv|card_cvv|cvc|cvv|securityCode|security_code"
    r"|paymentCredential|payment_credential|sharedPaymentToken|shared_payment_token"
)
_AUTH_QUERY_KEYS = (
    r"access[-_]?token|auth[-_]?token|hook[-_]?token|refresh[-_]?token|id[-_]?token|api[-_]?key"
    r"|apikey|client[-_]?secret|app[-_]?secret|private[-_]?key|credential|authorization|token|key"
    r"|secret|password|pass|passwd|auth|jwt|session|code|signature"
    r"|x[-_]?amz[-_]?(?:signature|security[-_]?token)"
)
_FORM_FIRST_PAIR_KEYS = _AUTH_QUERY_KEYS + r"|app[-_]?secret|credential|" + _PAYMENT_QUERY_KEYS
_STANDALONE_KEYS = (
    r"access_token|refresh_token|id_token|auth[-_]?token|hook[-_]?token|api[-_]?key|client[-_]?secret"
    r"|app[-_]?secret|private[-_]?key|authorization|jwt|token|secret|password|pass|passwd|credential|"
    + _PAYMENT_QUERY_KEYS
)
_ENV_KEY = (
    r"\b[A-Z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|" + _PAYMENT_ENV_KEYS + r")\b\s*[=:]\s*"
)

ENV_ASSIGNMENT = "/" + _ENV_KEY + r"""(["']?)([^\s"'\\]+)\1/g"""
ESCAPED_ENV_ASSIGNMENT = "/" + _ENV_KEY + r"""\\+(["'])([^\s"'\\]+)\\+\1/g"""
STANDALONE_QUOTED = (
    r"(^|[\s,;])(?:" + _STANDALONE_KEYS + r""")=(["'\x60])((?:(?!\2)[^\r\n])+)\2"""
)
STANDALONE = r"(^|[\s,;])(?:" + _STANDALONE_KEYS + r""")=(["'\x60]?[^\s&#"'\x60<>]+)"""
BASE64_SAFE_BOUNDARY = r"(^|[^A-Za-z0-9])(?<!;base64,[A-Za-z0-9+/=]*)"
IDENTIFIER_SAFE_BOUNDARY = r"(^|[^A-Za-z0-9_])"
FIRECRAWL_TOKEN = r"(fc-[A-Za-z0-9]{10,})"
TELEGRAM_BOT_TOKEN = r"\bbot(\d{6,}:[A-Za-z0-9_-]{20,})\b"
TELEGRAM_TOKEN = r"\b(\d{6,}:[A-Za-z0-9_-]{20,})\b"

# Patterns whose value may be a shell reference to the key itself (`FOO_TOKEN=$FOO_TOKEN`).
SHELL_REFERENCE_SOURCES = frozenset(
    {ENV_ASSIGNMENT, ESCAPED_ENV_ASSIGNMENT, STANDALONE_QUOTED, STANDALONE})
# What 2026.9.6 (the SQLite era) changed in the built-in list: a Firecrawl key only at an
# identifier boundary, so that a session id such as `…-81fc-460960d42325` prints whole.
SQLITE_ERA_SOURCES = {FIRECRAWL_TOKEN: IDENTIFIER_SAFE_BOUNDARY + FIRECRAWL_TOKEN}
# Patterns replaced over the whole text even when it is long.
CHUNK_UNSAFE_SOURCES = frozenset({TELEGRAM_BOT_TOKEN, TELEGRAM_TOKEN})

DEFAULT_REDACT_PATTERNS: tuple[str, ...] = (
    ENV_ASSIGNMENT,
    ESCAPED_ENV_ASSIGNMENT,
    r"/[?&](?:" + _AUTH_QUERY_KEYS + "|" + _PAYMENT_QUERY_KEYS + r")=([^&#\s<>]+)/gi",
    r'"(?:apiKey|api_key|apiToken|api_token|bearerToken|bearer_token|token|secret|password|passwd'
    r"|credential|authorization|accessToken|access_token|refreshToken|refresh_token|idToken|id_token"
    r"|authToken|auth_token|clientSecret|client_secret|privateKey|private_key|secret_value|raw_secret"
    r"|secret_input|key_material|" + _PAYMENT_JSON_KEYS + r')"\s*:\s*"([^"]+)"',
    r"""(^|[\s,{])["']?(?:api[-_]key|access[-_]token|refresh[-_]token|id[-_]token|authToken"""
    r"|auth[-_]token|clientSecret|client[-_]secret|appSecret|app[-_]secret|private[-_]key|credential"
    r"|authorization|secret[-_]value|raw[-_]secret|secret[-_]input|key[-_]material)"
    r"""["']?\s*[:=]\s*(["'])([^"'\r\n]+)\2""",
    r"""(^|[\s,{])["']?(?:authorization|proxy-authorization|cookie|set-cookie|x-api-key"""
    r"""|x-auth-token)["']?\s*[:=]\s*(["'])([^"'\r\n]+)\2""",
    r"--(?:api[-_]?key|hook[-_]?token|access[-_]?token|refresh[-_]?token|id[-_]?token|token|secret"
    r"|password|passwd|credential|private[-_]?key|client[-_]?secret|" + _PAYMENT_QUERY_KEYS
    + r""")\s+(?!(?:or|and)\b(?=\s+--))(["']?)([^\s"']+)\1""",
    r"Authorization\s*[:=]\s*Bearer\s+([A-Za-z0-9._\-+=]+)",
    r"Authorization\s*[:=]\s*Basic\s+([A-Za-z0-9+/=]+)",
    r"Authorization\s*[:=]\s*Bot\s+([A-Za-z0-9._\-+=]{18,})",
    r"(?:X-OpenClaw-Token|x-pomerium-jwt-assertion|X-Api-Key|X-Auth-Token)"
    r"""\s*[:=]\s*([^\s"',;]+)""",
    r"\bBearer\s+([A-Za-z0-9._\-+=]{18,})\b",
    r"\b(?:https?|wss?|ftp):\/\/[^\/\s:@]*:([^\/\s@]+)@",
    r"\b(?:postgres(?:ql)?|mysql|mongodb(?:\+srv)?|rediss?|amqps?):\/\/[^:\s/@]*:([^@\s]+)@",
    r"(^|[\s,;])(?:" + _FORM_FIRST_PAIR_KEYS + r")=([^&\s]+)(?=&[A-Za-z_][A-Za-z0-9_.-]*=)",
    STANDALONE_QUOTED,
    STANDALONE,
    r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]+?-----END [A-Z ]*PRIVATE KEY-----",
    r"\b(sk-[A-Za-z0-9_-]{8,})\b",
    r"(ghp_[A-Za-z0-9]{10,})",
    r"(github_pat_[A-Za-z0-9_]{10,})",
    r"(gho_[A-Za-z0-9]{10,})",
    r"(ghu_[A-Za-z0-9]{10,})",
    r"(ghs_[A-Za-z0-9]{10,})",
    r"(ghr_[A-Za-z0-9]{10,})",
    r"(glpat-[A-Za-z0-9._=\-]{20,})",
    r"(gloas-[A-Fa-f0-9]{32,})",
    r"(xox[baprs]-[A-Za-z0-9-]{10,})",
    r"(xapp-[A-Za-z0-9-]{10,})",
    r"(https:\/\/hooks\.slack\.com\/(?:services\/T[A-Z0-9]+\/B[A-Z0-9]+"
    r"|workflows\/T[A-Z0-9]+\/A[A-Z0-9]+\/[0-9]{17,19})\/[A-Za-z0-9]{20,})",
    r"(https:\/\/discord(?:app)?\.com\/api\/webhooks\/[0-9]{17,20}\/[A-Za-z0-9_-]{60,})",
    r"discord(?:.|\n|\r){0,40}?\b([A-Za-z0-9_-]{24}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27})\b",
    r"(gsk_[A-Za-z0-9_-]{10,})",
    r"(AIza[0-9A-Za-z\-_]{20,})",
    r"(ya29\.[0-9A-Za-z_\-./+=]{10,})",
    r"(1//0[0-9A-Za-z_\-./+=]{10,})",
    r"(eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,})",
    r"(pplx-[A-Za-z0-9_-]{10,})",
    r"(fal_[A-Za-z0-9_-]{10,})",
    FIRECRAWL_TOKEN,
    r"(bb_live_[A-Za-z0-9_-]{10,})",
    BASE64_SAFE_BOUNDARY + r"(gAAAA[A-Za-z0-9_=-]{20,})",
    r"(sk_live_[A-Za-z0-9]{10,})",
    r"(sk_test_[A-Za-z0-9]{10,})",
    r"(rk_live_[A-Za-z0-9]{10,})",
    r"(SG\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,})",
    r"(npm_[A-Za-z0-9]{10,})",
    r"(pypi-[A-Za-z0-9_-]{10,})",
    r"(dop_v1_[A-Za-z0-9]{10,})",
    r"(doo_v1_[A-Za-z0-9]{10,})",
    r"(dor_v1_[A-Za-z0-9]{10,})",
    r"(dp\.(?:ct|pt|sa|scim|audit)\.[A-Za-z0-9]{40,44})",
    r"(dp\.st\.[A-Za-z0-9]{40,44})",
    r"(dp\.st\.[a-z0-9_-]{2,35}\.[A-Za-z0-9]{40,44})",
    r"(dckr_(?:pat|oat)_[A-Za-z0-9_-]{27,32})",
    r"(bkua_[a-z0-9]{40})",
    r"(CCIPAT_[A-Za-z0-9]{22}_[A-Fa-f0-9]{40})",
    r"(sbp_[a-z0-9]{40})",
    BASE64_SAFE_BOUNDARY + r"(dapi[0-9a-f]{32}(?:-\d)?)",
    r"(dd[pw]_[A-Za-z0-9]{36})",
    r"(glsa_[A-Za-z0-9_]{41})",
    r"(glc_eyJ[A-Za-z0-9+/=]{60,160})",
    r"(nfp_[A-Za-z0-9_]{36})",
    r"(CFPAT-[A-Za-z0-9_\-]{40,})",
    BASE64_SAFE_BOUNDARY + r"(ATCTT3xFfG[A-Za-z0-9+/=_-]+=[A-Za-z0-9]{8})",
    BASE64_SAFE_BOUNDARY + r"(ATATT[A-Za-z0-9+/=_-]+=[A-Za-z0-9]{8})",
    BASE64_SAFE_BOUNDARY + r"(ATBB[A-Za-z0-9_=.-]{16,})",
    r"(BBDC-[A-Za-z0-9+/@_-]{40,50})",
    r"(HRKU-AA[A-Za-z0-9_-]{20,})",
    r"(pat-(?:eu|na)1-[A-Za-z0-9]{8}\-[A-Za-z0-9]{4}\-[A-Za-z0-9]{4}\-[A-Za-z0-9]{4}"
    r"\-[A-Za-z0-9]{12})",
    r"(apify_api_[A-Za-z0-9\-]{20,})",
    r"(FlyV1 fm\d+_[A-Za-z0-9+/=,_-]{100,})",
    r"(fio-u-[A-Za-z0-9_-]{40,})",
    r"(^|[^A-Za-z0-9_])(am_[A-Za-z0-9_-]{10,})",
    r"(^|[^A-Za-z0-9_])(sk_[A-Za-z0-9_]{10,})",
    r"(tvly-[A-Za-z0-9]{10,})",
    r"(exa_[A-Za-z0-9]{10,})",
    r"(syt_[A-Za-z0-9]{10,})",
    r"(retaindb_[A-Za-z0-9]{10,})",
    r"(hsk-[A-Za-z0-9]{10,})",
    r"(mem0_[A-Za-z0-9]{10,})",
    r"(brv_[A-Za-z0-9]{10,})",
    r"(xai-[A-Za-z0-9]{30,})",
    IDENTIFIER_SAFE_BOUNDARY + r"(fw-[A-Za-z0-9]{30,})",
    IDENTIFIER_SAFE_BOUNDARY + r"(fw_[A-Za-z0-9]{30,})",
    IDENTIFIER_SAFE_BOUNDARY + r"(fpk_[A-Za-z0-9]{30,})",
    BASE64_SAFE_BOUNDARY + r"(AKIA[A-Z0-9]{16})",
    BASE64_SAFE_BOUNDARY + r"(ASIA[A-Z0-9]{16})",
    r"(AKID[A-Za-z0-9]{10,})",
    r"(LTAI[A-Za-z0-9]{10,})",
    r"(hf_[A-Za-z0-9]{10,})",
    r"(api_org_[A-Za-z0-9]{20,})",
    r"(r8_[A-Za-z0-9]{10,})",
    TELEGRAM_BOT_TOKEN,
    TELEGRAM_TOKEN,
)

# Form-encoded bodies and URL query pairs (JavaScript `u`-flag sources).
_INVISIBLE = r"\p{C}\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000\u115F\u1160\u3164\uFFA0"
_FORM_KEY = (
    "[" + _INVISIBLE + r"+]*(?:[A-Za-z_]|%[0-9A-Fa-f]{2})(?:[A-Za-z0-9_.-]|%[0-9A-Fa-f]{2}|["
    + _INVISIBLE + "+])*"
)
_FORM_VALUE = r"[^&\s<>]*"
_URL_QUERY_VALUE = r"[^&#\s<>]*"
_FORM_PAIR = _FORM_KEY + "=" + _FORM_VALUE

FORM_KEY_OBFUSCATION = ("[" + _INVISIBLE + "+]", "gu")
FORM_KEY_SEPARATOR = (r"[\p{C}\p{Z}\u115F\u1160\u3164\uFFA0+]", "gu")
FORM_PERCENT_ESCAPE = (r"%[0-9A-Fa-f]{2}", "u")
FORM_BODY = ("^" + _FORM_PAIR + "(?:&" + _FORM_PAIR + ")+$", "u")
FORM_BODY_SUBSTRING = (r"""(^|[\s:({\[,="'`])(""" + _FORM_PAIR + "(?:&" + _FORM_PAIR + ")+)", "gu")
ENCODED_FORM_PAIR = (r"""(^|[\s:({\[,="'`&])(""" + _FORM_KEY + ")=(" + _FORM_VALUE + ")", "gu")
FORM_CONTEXT_SINGLE_PAIR = (
    r"""(\b(?:body|form(?:[-_\s]?body)?)\s*[:=]\s*(["'\x60]?))(""" + _FORM_KEY + ")=("
    + _FORM_VALUE + r""")(["'\x60]?)""",
    "giu",
)
URL_QUERY_PAIR = ("([?&])(" + _FORM_KEY + ")=(" + _URL_QUERY_VALUE + ")", "gu")
LINE_BREAK_SPLIT = (r"(\r\n|\r|\n)", "u")

# Cheap gate: when no user patterns are configured, text that cannot match this is left alone.
PREFILTER = (
    "(?:"
    + "|".join((
        r"KEY|TOKEN|SECRET|PASSWORD|PASSWD|AUTH|COOKIE|SIGNATURE|CREDENTIAL|CARD|CVC|CVV|PAYMENT"
        r"|PRIVATE KEY",
        r"security[-_]?code|\bpass=|jwt=|session=|code=",
        r"\bBearer\s+",
        r":\/\/[^\/\s:@]*:[^\/\s@]+@",
        r"sk-|gh[opsur]_|github_pat_|glpat-|gloas-|xox[baprs]-|xapp-|hooks\.slack\.com|discord|gsk_"
        r"|AIza|ya29\.|1\/\/0|eyJ|pplx-|fal_|fc-|bb_live_|gAAAA|[sr]k_(?:live|test)_|\bSG\.|npm_"
        r"|pypi-|do[opr]_v1_|dp\.(?:ct|pt|sa|st|scim|audit)\.|dckr_|bkua_|CCIPAT_|sbp_|dapi[0-9a-f]"
        r"|dd[pw]_|glsa_|nfp_|CFPAT-|ATCTT3|ATATT|ATBB|BBDC-|HRKU-|pat-(?:eu|na)1-|apify_api_|FlyV1"
        r"|fio-u-|tvly-|exa_|syt_|retaindb_|mem0_|brv_|xai-|fw-|fw_|fpk_",
        r"(?:^|[^A-Za-z0-9_])(?:am_|sk_)",
        r"A[KS]IA[A-Z0-9]|AKID|LTAI|hf_|api_org_|r8_",
        r"\bbot\d{6,}:|\b\d{6,}:[A-Za-z0-9_-]{20,}",
        r"%[0-9A-Fa-f]{2}[A-Za-z0-9_%.-]*=",
        r"(?:\+|[" + _INVISIBLE + "])(?:[" + _INVISIBLE + r"+]*[A-Za-z0-9_%.-])+["
        + _INVISIBLE + "+]*=",
    ))
    + ")",
    "iu",
)

# Derived from the sources above (the tests recompute them): for each default pattern, the
# strings (lower case) of which every match contains one; None when there are none.
DEFAULT_REQUIRED: tuple[tuple[str, ...] | None, ...] = (
    ('card', 'credential', 'cvc', 'cvv', 'key', 'number', 'passwd', 'password', 'payment',
     'secret', 'security', 'token'),
    ('card', 'credential', 'cvc', 'cvv', 'key', 'number', 'passwd', 'password', 'payment',
     'secret', 'security', 'token'),
    ('access', 'apikey', 'auth', 'authorization', 'card', 'client', 'code', 'credential', 'cvc',
     'cvv', 'jwt', 'key', 'number', 'pass', 'passwd', 'password', 'payment', 'private',
     'refresh', 'secret', 'security', 'session', 'signature', 'token'),
    ('access_token', 'accesstoken', 'api_key', 'api_token', 'apikey', 'apitoken', 'auth_token',
     'authorization', 'authtoken', 'bearer_token', 'bearertoken', 'card_cvc', 'card_cvv',
     'card_number', 'cardcvc', 'cardcvv', 'cardnumber', 'client_secret', 'clientsecret',
     'credential', 'cvc', 'cvv', 'id_token', 'idtoken', 'key_material', 'passwd', 'password',
     'payment_credential', 'paymentcredential', 'private_key', 'privatekey', 'raw_secret',
     'refresh_token', 'refreshtoken', 'secret', 'secret_input', 'secret_value', 'security_code',
     'securitycode', 'shared_payment_token', 'sharedpaymenttoken', 'token'),
    ('-key', '-material', '-secret', '-token', '_key', '_material', '_secret', '_token',
     'access-', 'access_', 'appsecret', 'authorization', 'authtoken', 'client-', 'client_',
     'clientsecret', 'credential', 'private-', 'private_', 'refresh-', 'refresh_', 'secret-',
     'secret_'),
    ('authorization', 'cookie', 'proxy-authorization', 'set-cookie', 'x-api-key', 'x-auth-token'),
    ('access', 'card', 'client', 'credential', 'cvc', 'cvv', 'key', 'number', 'passwd',
     'password', 'payment', 'private', 'refresh', 'secret', 'security', 'token'),
    ('authorization',),
    ('authorization',),
    ('authorization',),
    ('x-api-key', 'x-auth-token', 'x-openclaw-token', 'x-pomerium-jwt-assertion'),
    ('bearer',),
    ('://',),
    ('amqp', 'mongodb', 'mysql', 'postgres', 'redis'),
    ('access', 'apikey', 'auth', 'authorization', 'card', 'client', 'code', 'credential', 'cvc',
     'cvv', 'jwt', 'key', 'number', 'pass', 'passwd', 'password', 'payment', 'private',
     'refresh', 'secret', 'security', 'session', 'signature', 'token'),
    ('access_token', 'authorization', 'card', 'client', 'credential', 'cvc', 'cvv', 'id_token',
     'jwt', 'key', 'number', 'pass', 'passwd', 'password', 'payment', 'private', 'refresh_token',
     'secret', 'security', 'token'),
    ('access_token', 'authorization', 'card', 'client', 'credential', 'cvc', 'cvv', 'id_token',
     'jwt', 'key', 'number', 'pass', 'passwd', 'password', 'payment', 'private', 'refresh_token',
     'secret', 'security', 'token'),
    ('private key-----',),
    ('sk-',),
    ('ghp_',),
    ('github_pat_',),
    ('gho_',),
    ('ghu_',),
    ('ghs_',),
    ('ghr_',),
    ('glpat-',),
    ('gloas-',),
    ('xoxa', 'xoxb', 'xoxp', 'xoxr', 'xoxs'),
    ('xapp-',),
    ('https://hooks.slack.com/',),
    ('.com/api/webhooks/0', '.com/api/webhooks/1', '.com/api/webhooks/2', '.com/api/webhooks/3',
     '.com/api/webhooks/4', '.com/api/webhooks/5', '.com/api/webhooks/6', '.com/api/webhooks/7',
     '.com/api/webhooks/8', '.com/api/webhooks/9'),
    ('discord',),
    ('gsk_',),
    ('aiza',),
    ('ya29.',),
    ('1//0',),
    ('eyj',),
    ('pplx-',),
    ('fal_',),
    ('fc-',),
    ('bb_live_',),
    ('gaaaa',),
    ('sk_live_',),
    ('sk_test_',),
    ('rk_live_',),
    ('sg.',),
    ('npm_',),
    ('pypi-',),
    ('dop_v1_',),
    ('doo_v1_',),
    ('dor_v1_',),
    ('dp.',),
    ('dp.st.',),
    ('dp.st.',),
    ('dckr_',),
    ('bkua_',),
    ('ccipat_',),
    ('sbp_',),
    ('dapi',),
    ('ddp', 'ddw'),
    ('glsa_',),
    ('glc_eyj',),
    ('nfp_',),
    ('cfpat-',),
    ('atctt3xffg',),
    ('atatt',),
    ('atbb',),
    ('bbdc-',),
    ('hrku-aa',),
    ('pat-',),
    ('apify_api_',),
    ('flyv1 fm0', 'flyv1 fm1', 'flyv1 fm2', 'flyv1 fm3', 'flyv1 fm4', 'flyv1 fm5', 'flyv1 fm6',
     'flyv1 fm7', 'flyv1 fm8', 'flyv1 fm9'),
    ('fio-u-',),
    ('am_',),
    ('sk_',),
    ('tvly-',),
    ('exa_',),
    ('syt_',),
    ('retaindb_',),
    ('hsk-',),
    ('mem0_',),
    ('brv_',),
    ('xai-',),
    ('fw-',),
    ('fw_',),
    ('fpk_',),
    ('akia',),
    ('asia',),
    ('akid',),
    ('ltai',),
    ('hf_',),
    ('api_org_',),
    ('r8_',),
    ('bot0', 'bot1', 'bot2', 'bot3', 'bot4', 'bot5', 'bot6', 'bot7', 'bot8', 'bot9'),
    ('0:', '1:', '2:', '3:', '4:', '5:', '6:', '7:', '8:', '9:'),
)
# For each alternative of PREFILTER: the word it is (up to ASCII case), if it is one, and
# the strings of which every match contains one.
PREFILTER_BRANCHES: tuple[tuple[str | None, tuple[str, ...] | None], ...] = (
    ('key', ('key',)),
    ('token', ('token',)),
    ('secret', ('secret',)),
    ('password', ('password',)),
    ('passwd', ('passwd',)),
    ('auth', ('auth',)),
    ('cookie', ('cookie',)),
    ('signature', ('signature',)),
    ('credential', ('credential',)),
    ('card', ('card',)),
    ('cvc', ('cvc',)),
    ('cvv', ('cvv',)),
    ('payment', ('payment',)),
    ('private key', ('private key',)),
    (None, ('security',)),
    (None, ('pass=',)),
    ('jwt=', ('jwt=',)),
    ('session=', ('session=',)),
    ('code=', ('code=',)),
    (None, ('bearer',)),
    (None, ('://',)),
    ('sk-', ('sk-',)),
    (None, ('gho', 'ghp', 'ghr', 'ghs', 'ghu')),
    ('github_pat_', ('github_pat_',)),
    ('glpat-', ('glpat-',)),
    ('gloas-', ('gloas-',)),
    (None, ('xoxa', 'xoxb', 'xoxp', 'xoxr', 'xoxs')),
    ('xapp-', ('xapp-',)),
    ('hooks.slack.com', ('hooks.slack.com',)),
    ('discord', ('discord',)),
    ('gsk_', ('gsk_',)),
    ('aiza', ('aiza',)),
    ('ya29.', ('ya29.',)),
    ('1//0', ('1//0',)),
    ('eyj', ('eyj',)),
    ('pplx-', ('pplx-',)),
    ('fal_', ('fal_',)),
    ('fc-', ('fc-',)),
    ('bb_live_', ('bb_live_',)),
    ('gaaaa', ('gaaaa',)),
    (None, ('live', 'test')),
    (None, ('sg.',)),
    ('npm_', ('npm_',)),
    ('pypi-', ('pypi-',)),
    (None, ('o_v1_', 'p_v1_', 'r_v1_')),
    (None, ('dp.',)),
    ('dckr_', ('dckr_',)),
    ('bkua_', ('bkua_',)),
    ('ccipat_', ('ccipat_',)),
    ('sbp_', ('sbp_',)),
    (None, ('dapi',)),
    (None, ('ddp', 'ddw')),
    ('glsa_', ('glsa_',)),
    ('nfp_', ('nfp_',)),
    ('cfpat-', ('cfpat-',)),
    ('atctt3', ('atctt3',)),
    ('atatt', ('atatt',)),
    ('atbb', ('atbb',)),
    ('bbdc-', ('bbdc-',)),
    ('hrku-', ('hrku-',)),
    (None, ('pat-',)),
    ('apify_api_', ('apify_api_',)),
    ('flyv1', ('flyv1',)),
    ('fio-u-', ('fio-u-',)),
    ('tvly-', ('tvly-',)),
    ('exa_', ('exa_',)),
    ('syt_', ('syt_',)),
    ('retaindb_', ('retaindb_',)),
    ('mem0_', ('mem0_',)),
    ('brv_', ('brv_',)),
    ('xai-', ('xai-',)),
    ('fw-', ('fw-',)),
    ('fw_', ('fw_',)),
    ('fpk_', ('fpk_',)),
    (None, ('am_', 'sk_')),
    (None, ('kia', 'sia')),
    ('akid', ('akid',)),
    ('ltai', ('ltai',)),
    ('hf_', ('hf_',)),
    ('api_org_', ('api_org_',)),
    ('r8_', ('r8_',)),
    (None, ('bot0', 'bot1', 'bot2', 'bot3', 'bot4', 'bot5', 'bot6', 'bot7', 'bot8', 'bot9')),
    (None, ('0:', '1:', '2:', '3:', '4:', '5:', '6:', '7:', '8:', '9:')),
    (None, ('=',)),
    (None, ('=',)),
)

# Form keys (after normalisation) whose values are masked.
BODY_SECRET_KEYS = frozenset({
    "access_token", "auth_token", "hook_token", "refresh_token", "id_token", "token", "api_key",
    "apikey", "client_secret", "app_secret", "password", "pass", "passwd", "auth", "jwt", "session",
    "code", "signature", "x_amz_signature", "x_amz_security_token", "secret", "credential",
    "private_key", "authorization", "key", "card_number", "card_cvc", "card_cvv", "cvc", "cvv",
    "security_code", "payment_credential", "shared_payment_token",
})
