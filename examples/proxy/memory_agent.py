#!/usr/bin/env python3
"""An ACP agent in Python (standard library only) behind `buzz-meta proxy`.

    buzz-meta proxy --agent-pubkey npub1... -- python3 examples/proxy/memory_agent.py

The proxy reads the Buzz context of every prompt, checks it against the pinned key, and hands
it over as `_meta.buzzContext` (docs/proxy.md). This agent uses two parts of it:

- `keys.sender` ("buzz:pubkey:<hex>" of the last event's author) partitions its memory: each
  person gets their own notes, whichever channel they write from;
- `trust` gates the admin command: "/admin ..." runs only when the sender is proven
  ("verified": the host signed the delivery with the key the proxy pins). The command is read
  from the last event's `content` in the context, which the signature covers, rather than from
  the prompt text.

ACP is newline-delimited JSON-RPC on stdin/stdout; stdout carries only the protocol, so the
agent's own log lines go to stderr.
"""
import json
import sys

memory = {}  # keys.sender -> what that person said, oldest first


def send(message):
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", **message}) + "\n")
    sys.stdout.flush()


def say(session_id, text):
    update = {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": text}}
    send({"method": "session/update", "params": {"sessionId": session_id, "update": update}})


def prompt(params):
    session_id = params["sessionId"]
    # Only the proxy writes buzzContext: one the host sent never gets here.
    buzz = (params.get("_meta") or {}).get("buzzContext")
    if buzz is None or buzz["keys"]["sender"] is None:
        say(session_id, "I only answer Buzz messages.")
        return {"stopReason": "end_turn"}

    sender = buzz["keys"]["sender"]
    # The message this turn answers is the last event. A draft carries no content: its words are
    # then only in the prompt text.
    last = buzz["events"][-1]["content"]
    if last is None:
        last = "\n".join(block.get("text", "") for block in params["prompt"] if block.get("type") == "text")

    if last.lstrip().startswith("/admin"):
        if buzz["trust"] != "verified":
            say(session_id, f"Refused: admin commands need a verified sender, this one is {buzz['trust']}.")
            return {"stopReason": "refusal"}
        say(session_id, f"Admin command accepted from {sender}.")
        return {"stopReason": "end_turn"}

    notes = memory.setdefault(sender, [])
    say(session_id, f"{len(notes)} earlier message(s) from you; the last: {notes[-1] if notes else '(none)'}")
    notes.append(last)
    return {"stopReason": "end_turn", "_meta": {"remembered": len(notes)}}


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        method, request_id = message.get("method"), message.get("id")
        if method == "initialize":
            send({"id": request_id, "result": {"protocolVersion": 1, "agentCapabilities": {}}})
        elif method == "session/new":
            send({"id": request_id, "result": {"sessionId": "python-session"}})
        elif method == "session/prompt":
            send({"id": request_id, "result": prompt(message["params"])})
        elif method == "session/cancel":
            print("python agent: nothing to cancel", file=sys.stderr)
        elif request_id is not None and method is not None:
            send({"id": request_id, "error": {"code": -32601, "message": f"Method not found: {method}"}})


if __name__ == "__main__":
    main()
