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
TELEGRAM_BOT_TOKEN = r"\bbot(\d{6,}:[A-Za-z0-9_-]{20,})\b"
TELEGRAM_TOKEN = r"\b(\d{6,}:[A-Za-z0-9_-]{20,})\b"

# Patterns whose value may be a shell reference to the key itself (`FOO_TOKEN=$FOO_TOKEN`).
SHELL_REFERENCE_SOURCES = frozenset(
    {ENV_ASSIGNMENT, ESCAPED_ENV_ASSIGNMENT, STANDALONE_QUOTED, STANDALONE})
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
    r"(fc-[A-Za-z0-9]{10,})",
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

# Unicode 17 (OpenClaw runtime's tables), hex code point ranges.
UNICODE_Z_RANGES = "20 a0 1680 2000-200a 2028-2029 202f 205f 3000"
UNICODE_C_RANGES = (
    "0-1f 7f-9f ad 378-379 380-383 38b 38d 3a2 530 557-558 58b-58c 590 5c8-5cf 5eb-5ee 5f5-605 "
    "61c 6dd 70e-70f 74b-74c 7b2-7bf 7fb-7fc 82e-82f 83f 85c-85d 85f 86b-86f 890-896 8e2 984 "
    "98d-98e 991-992 9a9 9b1 9b3-9b5 9ba-9bb 9c5-9c6 9c9-9ca 9cf-9d6 9d8-9db 9de 9e4-9e5 9ff-a00 "
    "a04 a0b-a0e a11-a12 a29 a31 a34 a37 a3a-a3b a3d a43-a46 a49-a4a a4e-a50 a52-a58 a5d a5f-a65 "
    "a77-a80 a84 a8e a92 aa9 ab1 ab4 aba-abb ac6 aca ace-acf ad1-adf ae4-ae5 af2-af8 b00 b04 "
    "b0d-b0e b11-b12 b29 b31 b34 b3a-b3b b45-b46 b49-b4a b4e-b54 b58-b5b b5e b64-b65 b78-b81 b84 "
    "b8b-b8d b91 b96-b98 b9b b9d ba0-ba2 ba5-ba7 bab-bad bba-bbd bc3-bc5 bc9 bce-bcf bd1-bd6 "
    "bd8-be5 bfb-bff c0d c11 c29 c3a-c3b c45 c49 c4e-c54 c57 c5b c5e-c5f c64-c65 c70-c76 c8d c91 "
    "ca9 cb4 cba-cbb cc5 cc9 cce-cd4 cd7-cdb cdf ce4-ce5 cf0 cf4-cff d0d d11 d45 d49 d50-d53 "
    "d64-d65 d80 d84 d97-d99 db2 dbc dbe-dbf dc7-dc9 dcb-dce dd5 dd7 de0-de5 df0-df1 df5-e00 "
    "e3b-e3e e5c-e80 e83 e85 e8b ea4 ea6 ebe-ebf ec5 ec7 ecf eda-edb ee0-eff f48 f6d-f70 f98 fbd "
    "fcd fdb-fff 10c6 10c8-10cc 10ce-10cf 1249 124e-124f 1257 1259 125e-125f 1289 128e-128f 12b1 "
    "12b6-12b7 12bf 12c1 12c6-12c7 12d7 1311 1316-1317 135b-135c 137d-137f 139a-139f 13f6-13f7 "
    "13fe-13ff 169d-169f 16f9-16ff 1716-171e 1737-173f 1754-175f 176d 1771 1774-177f 17de-17df "
    "17ea-17ef 17fa-17ff 180e 181a-181f 1879-187f 18ab-18af 18f6-18ff 191f 192c-192f 193c-193f "
    "1941-1943 196e-196f 1975-197f 19ac-19af 19ca-19cf 19db-19dd 1a1c-1a1d 1a5f 1a7d-1a7e "
    "1a8a-1a8f 1a9a-1a9f 1aae-1aaf 1ade-1adf 1aec-1aff 1b4d 1bf4-1bfb 1c38-1c3a 1c4a-1c4c "
    "1c8b-1c8f 1cbb-1cbc 1cc8-1ccf 1cfb-1cff 1f16-1f17 1f1e-1f1f 1f46-1f47 1f4e-1f4f 1f58 1f5a "
    "1f5c 1f5e 1f7e-1f7f 1fb5 1fc5 1fd4-1fd5 1fdc 1ff0-1ff1 1ff5 1fff 200b-200f 202a-202e "
    "2060-206f 2072-2073 208f 209d-209f 20c2-20cf 20f1-20ff 218c-218f 242a-243f 244b-245f "
    "2b74-2b75 2cf4-2cf8 2d26 2d28-2d2c 2d2e-2d2f 2d68-2d6e 2d71-2d7e 2d97-2d9f 2da7 2daf 2db7 "
    "2dbf 2dc7 2dcf 2dd7 2ddf 2e5e-2e7f 2e9a 2ef4-2eff 2fd6-2fef 3040 3097-3098 3100-3104 3130 "
    "318f 31e6-31ee 321f a48d-a48f a4c7-a4cf a62c-a63f a6f8-a6ff a7dd-a7f0 a82d-a82f a83a-a83f "
    "a878-a87f a8c6-a8cd a8da-a8df a954-a95e a97d-a97f a9ce a9da-a9dd a9ff aa37-aa3f aa4e-aa4f "
    "aa5a-aa5b aac3-aada aaf7-ab00 ab07-ab08 ab0f-ab10 ab17-ab1f ab27 ab2f ab6c-ab6f abee-abef "
    "abfa-abff d7a4-d7af d7c7-d7ca d7fc-f8ff fa6e-fa6f fada-faff fb07-fb12 fb18-fb1c fb37 fb3d "
    "fb3f fb42 fb45 fdd0-fdef fe1a-fe1f fe53 fe67 fe6c-fe6f fe75 fefd-ff00 ffbf-ffc1 ffc8-ffc9 "
    "ffd0-ffd1 ffd8-ffd9 ffdd-ffdf ffe7 ffef-fffb fffe-ffff 1000c 10027 1003b 1003e 1004e-1004f "
    "1005e-1007f 100fb-100ff 10103-10106 10134-10136 1018f 1019d-1019f 101a1-101cf 101fe-1027f "
    "1029d-1029f 102d1-102df 102fc-102ff 10324-1032c 1034b-1034f 1037b-1037f 1039e 103c4-103c7 "
    "103d6-103ff 1049e-1049f 104aa-104af 104d4-104d7 104fc-104ff 10528-1052f 10564-1056e 1057b "
    "1058b 10593 10596 105a2 105b2 105ba 105bd-105bf 105f4-105ff 10737-1073f 10756-1075f "
    "10768-1077f 10786 107b1 107bb-107ff 10806-10807 10809 10836 10839-1083b 1083d-1083e 10856 "
    "1089f-108a6 108b0-108df 108f3 108f6-108fa 1091c-1091e 1093a-1093e 1095a-1097f 109b8-109bb "
    "109d0-109d1 10a04 10a07-10a0b 10a14 10a18 10a36-10a37 10a3b-10a3e 10a49-10a4f 10a59-10a5f "
    "10aa0-10abf 10ae7-10aea 10af7-10aff 10b36-10b38 10b56-10b57 10b73-10b77 10b92-10b98 "
    "10b9d-10ba8 10bb0-10bff 10c49-10c7f 10cb3-10cbf 10cf3-10cf9 10d28-10d2f 10d3a-10d3f "
    "10d66-10d68 10d86-10d8d 10d90-10e5f 10e7f 10eaa 10eae-10eaf 10eb2-10ec1 10ec8-10ecf "
    "10ed9-10ef9 10f28-10f2f 10f5a-10f6f 10f8a-10faf 10fcc-10fdf 10ff7-10fff 1104e-11051 "
    "11076-1107e 110bd 110c3-110cf 110e9-110ef 110fa-110ff 11135 11148-1114f 11177-1117f 111e0 "
    "111f5-111ff 11212 11242-1127f 11287 11289 1128e 1129e 112aa-112af 112eb-112ef 112fa-112ff "
    "11304 1130d-1130e 11311-11312 11329 11331 11334 1133a 11345-11346 11349-1134a 1134e-1134f "
    "11351-11356 11358-1135c 11364-11365 1136d-1136f 11375-1137f 1138a 1138c-1138d 1138f 113b6 "
    "113c1 113c3-113c4 113c6 113cb 113d6 113d9-113e0 113e3-113ff 1145c 11462-1147f 114c8-114cf "
    "114da-1157f 115b6-115b7 115de-115ff 11645-1164f 1165a-1165f 1166d-1167f 116ba-116bf "
    "116ca-116cf 116e4-116ff 1171b-1171c 1172c-1172f 11747-117ff 1183c-1189f 118f3-118fe "
    "11907-11908 1190a-1190b 11914 11917 11936 11939-1193a 11947-1194f 1195a-1199f 119a8-119a9 "
    "119d8-119d9 119e5-119ff 11a48-11a4f 11aa3-11aaf 11af9-11aff 11b0a-11b5f 11b68-11bbf "
    "11be2-11bef 11bfa-11bff 11c09 11c37 11c46-11c4f 11c6d-11c6f 11c90-11c91 11ca8 11cb7-11cff "
    "11d07 11d0a 11d37-11d39 11d3b 11d3e 11d48-11d4f 11d5a-11d5f 11d66 11d69 11d8f 11d92 "
    "11d99-11d9f 11daa-11daf 11ddc-11ddf 11dea-11edf 11ef9-11eff 11f11 11f3b-11f3d 11f5b-11faf "
    "11fb1-11fbf 11ff2-11ffe 1239a-123ff 1246f 12475-1247f 12544-12f8f 12ff3-12fff 13430-1343f "
    "13456-1345f 143fb-143ff 14647-160ff 1613a-167ff 16a39-16a3f 16a5f 16a6a-16a6d 16abf "
    "16aca-16acf 16aee-16aef 16af6-16aff 16b46-16b4f 16b5a 16b62 16b78-16b7c 16b90-16d3f "
    "16d7a-16e3f 16e9b-16e9f 16eb9-16eba 16ed4-16eff 16f4b-16f4e 16f88-16f8e 16fa0-16fdf "
    "16fe5-16fef 16ff7-16fff 18cd6-18cfe 18d1f-18d7f 18df3-1afef 1aff4 1affc 1afff 1b123-1b131 "
    "1b133-1b14f 1b153-1b154 1b156-1b163 1b168-1b16f 1b2fc-1bbff 1bc6b-1bc6f 1bc7d-1bc7f "
    "1bc89-1bc8f 1bc9a-1bc9b 1bca0-1cbff 1ccfd-1ccff 1ceb4-1ceb9 1ced1-1cedf 1cef1-1ceff "
    "1cf2e-1cf2f 1cf47-1cf4f 1cfc4-1cfff 1d0f6-1d0ff 1d127-1d128 1d173-1d17a 1d1eb-1d1ff "
    "1d246-1d2bf 1d2d4-1d2df 1d2f4-1d2ff 1d357-1d35f 1d379-1d3ff 1d455 1d49d 1d4a0-1d4a1 "
    "1d4a3-1d4a4 1d4a7-1d4a8 1d4ad 1d4ba 1d4bc 1d4c4 1d506 1d50b-1d50c 1d515 1d51d 1d53a 1d53f "
    "1d545 1d547-1d549 1d551 1d6a6-1d6a7 1d7cc-1d7cd 1da8c-1da9a 1daa0 1dab0-1deff 1df1f-1df24 "
    "1df2b-1dfff 1e007 1e019-1e01a 1e022 1e025 1e02b-1e02f 1e06e-1e08e 1e090-1e0ff 1e12d-1e12f "
    "1e13e-1e13f 1e14a-1e14d 1e150-1e28f 1e2af-1e2bf 1e2fa-1e2fe 1e300-1e4cf 1e4fa-1e5cf "
    "1e5fb-1e5fe 1e600-1e6bf 1e6df 1e6f6-1e6fd 1e700-1e7df 1e7e7 1e7ec 1e7ef 1e7ff 1e8c5-1e8c6 "
    "1e8d7-1e8ff 1e94c-1e94f 1e95a-1e95d 1e960-1ec70 1ecb5-1ed00 1ed3e-1edff 1ee04 1ee20 1ee23 "
    "1ee25-1ee26 1ee28 1ee33 1ee38 1ee3a 1ee3c-1ee41 1ee43-1ee46 1ee48 1ee4a 1ee4c 1ee50 1ee53 "
    "1ee55-1ee56 1ee58 1ee5a 1ee5c 1ee5e 1ee60 1ee63 1ee65-1ee66 1ee6b 1ee73 1ee78 1ee7d 1ee7f "
    "1ee8a 1ee9c-1eea0 1eea4 1eeaa 1eebc-1eeef 1eef2-1efff 1f02c-1f02f 1f094-1f09f 1f0af-1f0b0 "
    "1f0c0 1f0d0 1f0f6-1f0ff 1f1ae-1f1e5 1f203-1f20f 1f23c-1f23f 1f249-1f24f 1f252-1f25f "
    "1f266-1f2ff 1f6d9-1f6db 1f6ed-1f6ef 1f6fd-1f6ff 1f7da-1f7df 1f7ec-1f7ef 1f7f1-1f7ff "
    "1f80c-1f80f 1f848-1f84f 1f85a-1f85f 1f888-1f88f 1f8ae-1f8af 1f8bc-1f8bf 1f8c2-1f8cf "
    "1f8d9-1f8ff 1fa58-1fa5f 1fa6e-1fa6f 1fa7d-1fa7f 1fa8b-1fa8d 1fac7 1fac9-1facc 1fadd-1fade "
    "1faeb-1faee 1faf9-1faff 1fb93 1fbfb-1ffff 2a6e0-2a6ff 2b81e-2b81f 2ceae-2ceaf 2ebe1-2ebef "
    "2ee5e-2f7ff 2fa1e-2ffff 3134b-3134f 3347a-e00ff e01f0-10ffff"
)
