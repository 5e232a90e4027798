// Discord's side of the Embedded App SDK's RPC, for an Activity in an iframe: what
// Discord's client does around an Activity, as the SDK (@discord/embedded-app-sdk,
// src/Discord.ts and src/schema) speaks it over postMessage.
//
//   hostActivity(iframe, {instanceId, userId, clientId, platform, guildId, channelId, locale})
//
// loads the Activity into `iframe` with Discord's query parameters (frame_id, instance_id,
// platform, guild_id, channel_id, location_id) and answers its messages, each an array
// [opcode, payload]: HANDSHAKE (0) -> READY; FRAME (1) commands by nonce -> a response
// {cmd, evt: null, nonce, data} or an error {cmd, evt: "ERROR", nonce, data: {code, message}};
// CLOSE (2) from the Activity -> its person leaves it. Dispatches are FRAMEs with
// cmd "DISPATCH" and a null nonce.
"use strict";

const HANDSHAKE = 0, FRAME = 1, CLOSE = 2;
// RPCCloseCodes and RPCErrorCodes of the SDK's Constants.ts
const INVALID_CLIENTID = 4000, INVALID_VERSION = 4004;
const INVALID_PAYLOAD = 4000, INVALID_COMMAND = 4002, INVALID_EVENT = 4004,
  INVALID_PERMISSIONS = 4006, INVALID_TOKEN = 4009;
// events an Activity may subscribe to; only the participants' change is ever dispatched here
const EVENTS = new Set([
  "ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE", "ACTIVITY_LAYOUT_MODE_UPDATE", "ORIENTATION_UPDATE",
  "CURRENT_USER_UPDATE", "CURRENT_GUILD_MEMBER_UPDATE", "THERMAL_STATE_UPDATE",
  "VOICE_STATE_UPDATE", "SPEAKING_START", "SPEAKING_STOP", "ENTITLEMENT_CREATE",
  "RELATIONSHIP_UPDATE", "ACTIVITY_JOIN",
]);

class RpcError extends Error {
  constructor(code, message) { super(message); this.code = code; }
}

export function hostActivity(iframe, options) {
  const { instanceId, userId, clientId, platform = "desktop", guildId = "", channelId = "",
    locale = "en-US", api = "/.localcord", activityPath = "/" } = options;
  const frameId = crypto.randomUUID();
  const origin = location.origin; // the Activity's, which this frame shares
  const state = { ready: false, grant: null, subscribed: new Set(), version: -1, closed: false };

  const query = new URLSearchParams({ frame_id: frameId, instance_id: instanceId, platform });
  if (guildId) query.set("guild_id", guildId);
  if (channelId) query.set("channel_id", channelId);
  query.set("location_id", guildId ? `gc-${guildId}-${channelId}` : `pc-${channelId}`);

  const send = (opcode, payload) => iframe.contentWindow?.postMessage([opcode, payload], origin);
  const reply = (cmd, nonce, data) => send(FRAME, { cmd, evt: null, nonce, data });
  const fail = (cmd, nonce, code, message) =>
    send(FRAME, { cmd, evt: "ERROR", nonce, data: { code, message } });
  const dispatch = (evt, data) => send(FRAME, { cmd: "DISPATCH", evt, nonce: null, data });

  async function call(path, body) {
    const answer = await fetch(api + path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ user: userId, instance_id: instanceId, ...body }),
    });
    const data = await answer.json();
    if (!answer.ok) throw new RpcError(data.code || INVALID_PAYLOAD, data.message || "refused");
    return data;
  }

  async function participants() {
    const query = new URLSearchParams({ instance_id: instanceId, since: -1 });
    return (await (await fetch(`${api}/participants?${query}`)).json()).participants;
  }

  // Tells subscribers each change of the participants, as Discord dispatches it.
  async function followParticipants() {
    let seen = JSON.stringify(await participants());
    while (!state.closed && state.subscribed.has("ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE")) {
      const query = new URLSearchParams({ instance_id: instanceId, since: state.version });
      let said;
      try {
        said = await (await fetch(`${api}/participants?${query}`)).json();
      } catch (e) {
        await new Promise((ok) => setTimeout(ok, 1000));
        continue;
      }
      state.version = said.version;
      const now = JSON.stringify(said.participants);
      if (now !== seen && state.subscribed.has("ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE")) {
        seen = now;
        dispatch("ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE", { participants: said.participants });
      }
    }
  }

  function needs(scope) {
    if (!state.grant) throw new RpcError(INVALID_PERMISSIONS, "Not authenticated");
    if (scope && !state.grant.scopes.includes(scope)) {
      throw new RpcError(INVALID_PERMISSIONS, `Missing the OAuth2 scope ${scope}`);
    }
  }

  const commands = {
    async AUTHORIZE(args) {
      if (String(args.client_id) !== clientId) throw new RpcError(4007, "Invalid client id");
      return call("/authorize", { client_id: args.client_id, scope: args.scope || [] });
    },
    async AUTHENTICATE(args) {
      const granted = await call("/authenticate", { access_token: args.access_token });
      state.grant = granted;
      return granted;
    },
    async GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS() {
      needs();
      return { participants: await participants() };
    },
    async SUBSCRIBE(args, evt) {
      if (!EVENTS.has(evt)) throw new RpcError(INVALID_EVENT, `Unknown event ${evt}`);
      const first = !state.subscribed.has(evt);
      state.subscribed.add(evt);
      if (first && evt === "ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE") followParticipants();
      return { evt };
    },
    async UNSUBSCRIBE(args, evt) {
      state.subscribed.delete(evt);
      return { evt };
    },
    async SET_ACTIVITY(args) {
      needs("rpc.activities.write");
      const activity = args.activity || {};
      return { ...activity, name: "Crosshairs", type: activity.type ?? 0, application_id: clientId };
    },
    async USER_SETTINGS_GET_LOCALE() { return { locale }; },
    async CAPTURE_LOG() { return null; },
    async ENCOURAGE_HW_ACCELERATION() { return { enabled: true }; },
    async GET_PLATFORM_BEHAVIORS() { return {}; },
    async SET_ORIENTATION_LOCK_STATE() { return null; },
    async SET_CONFIG(args) { return { use_interactive_pip: Boolean(args.use_interactive_pip) }; },
  };

  async function command(payload) {
    const { cmd, nonce, args, evt } = payload || {};
    if (!state.ready) return; // Discord answers nothing before the handshake
    const run = commands[cmd];
    if (!run) return fail(cmd, nonce, INVALID_COMMAND, `Unknown command ${cmd}`);
    try {
      reply(cmd, nonce, await run(args || {}, evt));
    } catch (e) {
      fail(cmd, nonce, e.code || INVALID_PAYLOAD, e.message);
    }
  }

  function handshake(payload) {
    if (!payload || payload.v !== 1) {
      return send(CLOSE, { code: INVALID_VERSION, message: "Invalid version" });
    }
    if (String(payload.client_id) !== clientId || payload.frame_id !== frameId) {
      return send(CLOSE, { code: INVALID_CLIENTID, message: "Invalid client id or frame id" });
    }
    state.ready = true;
    const config = { cdn_host: "cdn.discordapp.com", api_endpoint: "//discord.com/api", environment: "production" };
    dispatch("READY", { v: 1, config });
  }

  function close() {
    if (state.closed) return;
    state.closed = true;
    window.removeEventListener("message", listen);
    call("/leave", {}).catch(() => {});
  }

  function listen(event) {
    if (event.source !== iframe.contentWindow || !Array.isArray(event.data)) return;
    const [opcode, payload] = event.data;
    if (opcode === HANDSHAKE) handshake(payload);
    else if (opcode === FRAME) command(payload);
    else if (opcode === CLOSE) close();
  }

  window.addEventListener("message", listen);
  iframe.src = `${activityPath}?${query}`;
  return { frameId, close };
}
