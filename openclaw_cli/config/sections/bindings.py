"""The `bindings` section of OpenClaw 2026.7.1's config schema (route and ACP bindings)."""

from collections.abc import Iterable
from typing import Annotated, Literal

from openclaw_cli.config.sections.base import ChatType, DmScope, StrList
from openclaw_cli.config.zod import ONE_OF, UNION, UNSET, Refined, Strict, required
from openclaw_cli.js.strings import js_trim
from openclaw_cli.js.values import object_at


class BindingPeer(Strict):
    kind: ChatType = required()
    id: str = required()


class BindingMatch(Strict):
    channel: str = required()
    accountId: str = UNSET
    peer: BindingPeer = UNSET
    guildId: str = UNSET
    teamId: str = UNSET
    roles: StrList = UNSET


class BindingSession(Strict):
    dmScope: DmScope = UNSET


class RouteBinding(Strict):
    type: Annotated[Literal["route"], ONE_OF] = UNSET
    agentId: str = required()
    comment: str = UNSET
    match: BindingMatch = required()
    session: BindingSession = UNSET


class AcpBindingSettings(Strict):
    mode: Annotated[Literal["persistent", "oneshot"], ONE_OF] = UNSET
    label: str = UNSET
    cwd: str = UNSET
    backend: str = UNSET


class AcpBinding(Refined):
    type: Annotated[Literal["acp"], ONE_OF] = required()
    agentId: str = required()
    comment: str = UNSET
    match: BindingMatch = required()
    acp: AcpBindingSettings = UNSET

    @classmethod
    def refine(cls, value: dict) -> Iterable[tuple[tuple, str]]:
        peer_id = object_at(object_at(value, "match"), "peer").get("id")
        if not (isinstance(peer_id, str) and js_trim(peer_id)):
            yield ("match", "peer"), "ACP bindings require match.peer.id to target a concrete conversation."


Binding = Annotated[RouteBinding | AcpBinding, UNION]
Bindings = list[Binding]
