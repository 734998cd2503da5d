"""OpenClaw 2026.7.1's catalogs for its model migrations: retired model refs and what replaces them,
the openai-codex provider's keys and APIs (facts, no logic).

Source: dist/legacy-config-migrations.runtime.models-*.js of openclaw 2026.7.1 (the
`models.retired-model-refs` migration: the per-owner upgrade tables, the Claude families, the config
keys that hold model refs).
"""

from __future__ import annotations

# groq/<retired> -> groq/<replacement>
GROQ = {
    "deepseek-r1-distill-llama-70b": "llama-3.3-70b-versatile",
    "gemma2-9b-it": "llama-3.1-8b-instant",
    "llama3-8b-8192": "llama-3.1-8b-instant",
    "llama3-70b-8192": "llama-3.3-70b-versatile",
    "meta-llama/llama-4-maverick-17b-128e-instruct": "openai/gpt-oss-120b",
    "moonshotai/kimi-k2-instruct": "openai/gpt-oss-120b",
    "moonshotai/kimi-k2-instruct-0905": "openai/gpt-oss-120b",
    "mistral-saba-24b": "qwen/qwen3-32b",
    "qwen-qwq-32b": "qwen/qwen3-32b",
}

# xai/<retired> -> xai/<replacement>
XAI = {
    "grok-code-fast": "grok-build-0.1",
    "grok-code-fast-1": "grok-build-0.1",
    "grok-code-fast-1-0825": "grok-build-0.1",
    "grok-4-fast-reasoning": "grok-4.3",
    "grok-4-1-fast-reasoning": "grok-4.3",
}

# openai, openai-codex and github-copilot: <retired> -> (replacement, replacement under openai-codex)
_GPT_55 = ("gpt-4", "gpt-4-turbo", "gpt-4.1", "gpt-4o", "gpt-4o-2024-05-13", "gpt-4o-2024-08-06", "gpt-4o-2024-11-20",
           "gpt-5", "gpt-5-chat-latest", "gpt-5.1", "gpt-5.1-chat-latest", "gpt-5.1-codex-max", "gpt-5.2",
           "gpt-5.2-chat-latest")
OPENAI = {
    **dict.fromkeys(_GPT_55, ("gpt-5.5", "gpt-5.5")),
    **dict.fromkeys(("gpt-5.2-codex", "gpt-5.1-codex", "gpt-5-codex"), ("gpt-5.3-codex", "gpt-5.5")),
    **dict.fromkeys(("gpt-5-pro", "gpt-5.2-pro"), ("gpt-5.5-pro", "gpt-5.5-pro")),
    **dict.fromkeys(("gpt-4.1-nano", "gpt-5-nano"), ("gpt-5.4-nano", "gpt-5.4-mini")),
    **dict.fromkeys(("gpt-4.1-mini", "gpt-4o-mini", "gpt-5.1-codex-mini", "gpt-5-mini"), ("gpt-5.4-mini",) * 2),
}
OPENAI_OWNERS = ("openai", "openai-codex", "github-copilot")
CODEX_PROVIDER = "openai-codex"

# github-copilot / copilot-proxy: grok-code-fast-1 -> gpt-5.4-mini
COPILOT_PROVIDERS = ("github-copilot", "copilot-proxy")
COPILOT_GROK = ("grok-code-fast-1", "gpt-5.4-mini")

# Claude: the providers whose refs are upgraded (no provider counts too), the current versions, the
# families' replacements (opus 4.7 except on venice and vercel-ai-gateway, where it is 4.6; sonnet 4.6).
CLAUDE_PROVIDERS = ("anthropic", "github-copilot", "copilot-proxy", "venice", "vercel-ai-gateway")
DOTTED_CLAUDE_PROVIDERS = ("github-copilot", "copilot-proxy")  # they spell versions 4.6, not 4-6
OPUS_46_PROVIDERS = ("venice", "vercel-ai-gateway")
OPUS_VERSION, SONNET_VERSION = "4.7", "4.6"
CURRENT_CLAUDE_PREFIXES = ("claude-opus-4-7", "claude-opus-4.7", "claude-opus-4-6", "claude-opus-4.6",
                           "claude-sonnet-4-6", "claude-sonnet-4.6", "claude-haiku-4-5", "claude-haiku-4.5")
# a retired version prefix matches alone or followed by one of these
VERSION_SEPARATORS = "-.:@"
RETIRED_OPUS_PREFIXES = ("claude-opus-4-5", "claude-opus-4.5", "claude-opus-4-1", "claude-opus-4.1", "claude-opus-4-0",
                         "claude-opus-4.0")
RETIRED_SONNET_PREFIXES = tuple(p.replace("opus", "sonnet") for p in RETIRED_OPUS_PREFIXES)
DATED_OPUS = r"claude-opus-4-20\d{6}"
DATED_SONNET = r"claude-sonnet-4-20\d{6}"
# anthropic.claude-* (Bedrock-style ids): left alone on Bedrock, and when already current
BEDROCK_PROVIDERS = ("amazon-bedrock", "amazon-bedrock-mantle")
BEDROCK_CURRENT_OPUS = ("anthropic.claude-opus-4-7", "anthropic.claude-opus-4-6")
BEDROCK_CURRENT_SONNET = ("anthropic.claude-sonnet-4-6",)
SHORT_OPUS = ("opus-4.5", "opus-4.1", "opus-4", "opus-3")
SHORT_SONNET = ("sonnet-4.5", "sonnet-4.1", "sonnet-4.0", "sonnet-4", "sonnet-3.7", "sonnet-3.5", "sonnet-3", "haiku-3.5",
                "haiku-3")

# Where model refs live: keys holding one ref, keys holding a list of refs, keys whose object keys are refs;
# any string below a `.modelByChannel.` path is a ref too.
REF_STRING_KEYS = frozenset({"model", "primary", "summaryModel", "imageModel", "imageGenerationModel",
                             "musicGenerationModel", "pdfModel", "videoGenerationModel"})
REF_ARRAY_KEYS = frozenset({"fallback", "fallbacks", "allowedModels", "modelFallbacks", "imageModelFallbacks"})
REF_MAP_KEYS = frozenset({"models"})
CHANNEL_OVERRIDE = ".modelByChannel."
# the config sections the detection rule looks at, in its order
SECTIONS = ("agents", "plugins", "messages", "tools", "hooks", "channels", "models")
MESSAGE = ('Configured retired model refs are no longer in the bundled catalogs; run "openclaw doctor --fix" to '
           "upgrade them.")

# -------------------------------------------------------------------------------- the openai-codex provider
# `models.providers.openai-codex->models.providers.openai` (same dist file, and
# dist/legacy-models-add-metadata facts folded into it).
CODEX_PROVIDER_ID = "openai-codex"
OPENAI_PROVIDER_ID = "openai"
LEGACY_RESPONSES_API = "openai-codex-responses"
RESPONSES_API = "openai-chatgpt-responses"
# provider-level defaults of openai-codex that merged model rows could not carry
UNSCOPED_PROVIDER_DEFAULT_KEYS = ("apiKey", "auth", "request", "timeoutSeconds", "region", "injectNumCtxForOpenAICompat",
                                  "localService", "headers", "authHeader")
# openai provider keys that would leak onto the merged rows
CANONICAL_MODEL_LEAK_KEYS = ("apiKey", "auth", "contextWindow", "contextTokens", "maxTokens", "timeoutSeconds",
                             "region", "injectNumCtxForOpenAICompat", "params", "agentRuntime", "localService",
                             "headers", "authHeader", "request")
# provider limits copied onto a merged row that has none
ROW_LIMIT_KEYS = ("contextWindow", "contextTokens", "maxTokens")
# the row `/models add` wrote for Codex: merged rows of this shape get metadataSource "models-add"
MODELS_ADD_IDS = ("gpt-5.5", "gpt-5.5-pro")
MODELS_ADD_APIS = ("openai-codex-responses", "openai-chatgpt-responses")
MODELS_ADD_SHAPE = {"reasoning": True, "input": ["text", "image"],
                    "cost": {"input": 5, "output": 30, "cacheRead": 0.5, "cacheWrite": 0},
                    "contextWindow": 400000, "contextTokens": 272000, "maxTokens": 128000}
CODEX_PROVIDER_MESSAGE = ('models.providers.openai-codex is legacy; run "openclaw doctor --fix" to move it to '
                          "models.providers.openai.")
CODEX_API_MESSAGE = 'openai-codex-responses is legacy; run "openclaw doctor --fix" to use openai-chatgpt-responses.'
