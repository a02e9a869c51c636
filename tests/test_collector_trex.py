"""The T-Rex collector against recorded T-Rex RPC replies (tests/fixtures/trex-rpc, see its README),
replayed by an in-process ZeroMQ REP server on 127.0.0.1: framing, handshake, error mapping,
timeouts, a full collection that validates, and interrupted or failed collections that leave nothing."""

from __future__ import annotations

import base64
import json
import re
import socket
import struct
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import run_cli
from trex_replay import FIXTURES, RESPONSES, SESSIONS, ReplayServer
from wirespeed.cli import cli
from wirespeed.collectors import trex_generator, trex_tape
from wirespeed.collectors.trex_collect import CollectorError, run
from wirespeed.collectors.trex_config import read_config
from wirespeed.collectors.trex_generator import TrexGenerator, stream, udp_packet
from wirespeed.collectors.trex_rpc import RpcClient, RpcError, TrexError, parse_server
from wirespeed.importers import trex as trex_importer
from wirespeed.catalog.load import load

CONFIG = FIXTURES / "collect.toml"
A, H = "SPhoCDIV", "AQokC3ZA"


class FakeTime:
    """sleep() advances clock(): a replayed trial takes no wall time."""

    def __init__(self) -> None:
        self.now, self.slept = 0.0, []

    def sleep(self, s: float) -> None:
        self.slept.append(s)
        self.now += s

    def clock(self) -> float:
        return self.now


def exchanges(name: str) -> list:
    return [list(e) for e in SESSIONS[name]["exchanges"]]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(autouse=True)
def fake_time(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    """The collector's clock and sleep (trex_tape's) are simulated: a replayed trial takes no wall time."""
    t = FakeTime()
    monkeypatch.setattr(trex_tape, "pause", t.sleep)
    monkeypatch.setattr(trex_tape, "monotonic", t.clock)
    return t


def collect(tmp_path: Path, server: str, config: Path = CONFIG, **kw) -> Path:
    return run(tmp_path, "trex-replay", server=server, config=Path(config), timeout=2, **kw)


# ---- protocol: framing and handshake

def test_requests_are_json_rpc_2_with_ids_and_the_api_handler() -> None:
    with ReplayServer(exchanges("collect")[:2]) as srv:
        client = RpcClient("127.0.0.1", srv.port, timeout_s=2)
        assert client.connect() == A
        assert client.call("get_version")["version"] == "v0.0"
        client.close()
    assert srv.mismatches == [] and srv.pending == []
    sync, version = srv.requests
    assert sync["method"] == "api_sync_v2" and sync["params"] == {"name": "STL", "major": 5, "minor": 1}  # no api_h before the handshake
    assert version["params"] == {"api_h": A}
    assert all(r["jsonrpc"] == "2.0" and len(r["id"]) == 8 for r in srv.requests)
    assert sync["id"] != version["id"]
    assert [e.reply["id"] for e in client.transcript] == [sync["id"], version["id"]]


def test_a_reply_with_another_id_is_refused() -> None:
    with ReplayServer(exchanges("collect")[:1], tamper=lambda r: {**r, "id": "zzzzzzzz"}) as srv:
        client = RpcClient("127.0.0.1", srv.port, timeout_s=2)
        with pytest.raises(TrexError, match=r"^api_sync_v2: the reply's id 'zzzzzzzz' is not the request's"):
            client.connect()
        client.close()


@pytest.mark.parametrize("reply, message", [
    (b"not json", "api_sync_v2: the reply is not JSON"),
    ({"id": None, "result": {}}, "api_sync_v2: the reply is not a JSON-RPC 2.0 response object"),
])
def test_a_malformed_reply_is_one_line(reply, message: str) -> None:
    with ReplayServer(exchanges("collect")[:1], tamper=lambda r: reply) as srv:
        client = RpcClient("127.0.0.1", srv.port, timeout_s=2)
        with pytest.raises(TrexError) as exc:
            client.connect()
        client.close()
    assert str(exc.value).startswith(message) and "\n" not in str(exc.value)


@pytest.mark.parametrize("session, message", [
    ("version_mismatch", "version mismatch: Version mismatch: your client version is too new to be supported by the server "
                         "(API type 'STL': - server: '5.0', client: '5.1')"),
    ("too_old", "version mismatch: the server does not know api_sync_v2 (T-Rex v2.30 or older)"),
])
def test_version_mismatch_is_one_clear_line(tmp_path: Path, session: str, message: str) -> None:
    with ReplayServer(session) as srv:
        with pytest.raises(CollectorError) as exc:
            collect(tmp_path, srv.address)
    assert message in str(exc.value) and "\n" not in str(exc.value)
    assert srv.mismatches == [] and list(tmp_path.iterdir()) == []


def test_an_rpc_error_object_names_method_code_and_server_message() -> None:
    with ReplayServer(exchanges("collect")[:1] + [["acquire", {"port_id": 0}, "error_port_taken"]]) as srv:
        client = RpcClient("127.0.0.1", srv.port, timeout_s=2)
        client.connect()
        with pytest.raises(RpcError) as exc:
            client.call("acquire", {"port_id": 0, "user": "u", "session_id": 1, "force": False})
        client.close()
    assert str(exc.value) == "acquire: failed to execute (-32000): port is already taken by 'itay'"
    assert exc.value.code == -32000


@pytest.mark.parametrize("session, message", [
    ("port_owned", "port 0 is busy: owned by 'itay' (state IDLE); release it or collect with --force"),
    ("port_taken_on_acquire", "port 0 is busy: port is already taken by 'itay'; release it or collect with --force"),
])
def test_a_busy_port_is_one_clear_line(tmp_path: Path, session: str, message: str) -> None:
    with ReplayServer(session) as srv:
        with pytest.raises(CollectorError) as exc:
            collect(tmp_path, srv.address)
    assert str(exc.value) == message
    assert srv.mismatches == [] and srv.pending == [] and list(tmp_path.iterdir()) == []


def test_connection_refused_is_one_clear_line(tmp_path: Path) -> None:
    port = free_port()
    with pytest.raises(CollectorError) as exc:
        collect(tmp_path, f"127.0.0.1:{port}")
    assert str(exc.value).startswith(f"T-Rex server 127.0.0.1:{port}: connection refused")
    assert list(tmp_path.iterdir()) == []


def test_a_silent_server_times_out_within_the_limit(tmp_path: Path) -> None:
    with ReplayServer(silent=True) as srv:
        t0 = time.monotonic()
        with pytest.raises(CollectorError) as exc:
            run(tmp_path, "trex-replay", server=srv.address, config=CONFIG, timeout=0.5)
        elapsed = time.monotonic() - t0
    assert str(exc.value) == f"T-Rex server {srv.address}: no reply to api_sync_v2 within 0.5 s"
    assert 0.4 < elapsed < 5 and len(srv.requests) == 1
    assert list(tmp_path.iterdir()) == []


def test_a_port_that_keeps_transmitting_is_stopped_and_the_trial_fails() -> None:
    trial = [["add_stream", {"handler": H, "port_id": 0}, "empty_result"],
             ["get_port_stats", {"port_id": 0}, "get_port_stats_idle"], ["get_port_stats", {"port_id": 1}, "get_port_stats_idle"],
             ["start_traffic", {"handler": H, "port_id": 0, "duration": 1.0}, "start_traffic"],
             *[["get_port_status", {"port_id": 0}, "get_port_status_tx"]] * 5,
             ["stop_traffic", {"handler": H, "port_id": 0}, "empty_result"], ["remove_all_streams", {"handler": H, "port_id": 0}, "empty_result"]]
    session = exchanges("collect")[:1] + exchanges("collect")[3:9] + trial + exchanges("collect")[-2:]
    t = FakeTime()
    with ReplayServer(session) as srv:
        client = RpcClient("127.0.0.1", srv.port, timeout_s=2)
        client.connect()
        gen = TrexGenerator(client, grace_s=1.0, poll_s=0.5, sleep=t.sleep, clock=t.clock)
        gen.acquire()
        with pytest.raises(TrexError, match=r"^port 0 still transmitting 1 s after the 1 s trial ended; stopped it$"):
            gen.trial(64, 1000.0, 1.0)
        gen.release()
        client.close()
    assert srv.mismatches == [] and srv.pending == []
    assert gen.handlers == {} and not gen.active


# ---- a full recorded collection

def test_a_recorded_collection_writes_a_set_that_validates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(trex_generator, "pause", lambda s: None)
    with ReplayServer("collect") as srv:
        res = CliRunner().invoke(cli, ["collect", "trex", "--server", srv.address, "--config", str(CONFIG), "--into", "trex-replay",
                                       "--root", str(tmp_path), "--timeout", "2"])
    assert res.exit_code == 0, res.output
    assert srv.mismatches == [] and srv.pending == []  # every recorded exchange, in order, and nothing else
    folder = tmp_path / "trex-replay"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["trex-replay"]  # no scratch folder left
    proc = run_cli("validate", str(folder))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 valid, 0 invalid; 0 errors" in proc.stderr

    rs, problems = load(folder)
    assert rs is not None and [p for p in problems if p.severity == "error"] == []
    rows = sorted((r for r in rs.rows if r.kind == "measurements"), key=lambda r: -float(r.keys["load_pct"].value))
    got = [(r.keys["frame_size"], r.value("tx"), r.value("rx"), r.value("lost"), r.value("offered_rate")) for r in rows]
    assert got == [(64, 1725794, 1725794, 0, 19531.25), (64, 44500, 44500, 0, 1000.0)]  # the documented counters, as differences

    runs = json.loads((folder / "native/sweep.json").read_text())
    assert [r["load_pct"] for r in runs] == [pytest.approx(19531.25 / 14880952.38 * 100, rel=1e-6), pytest.approx(1000 / 14880952.38 * 100, rel=1e-6)]
    for i in (1, 2):  # each trial's counters in get_stats() form, read by the T-Rex importer
        shape, _doc, recs, probs = trex_importer.parse((folder / f"raw/trial-{i:03d}.stats.json").read_bytes(), "x")
        assert shape == "stats" and probs == []
        port0 = next(r for r in recs if r.keys.get("port") == "0")
        assert port0.values["tx"][0] == [1725794, 44500][i - 1]
    transcript = json.loads((folder / "raw/rpc-transcript.json").read_text())
    assert [x["request"]["method"] for x in transcript] == [e[0] for e in SESSIONS["collect"]["exchanges"]]


def test_the_trial_stream_is_the_frame_asked_for() -> None:
    for size in (64, 128, 1518, 9000):
        pkt = udp_packet(size)
        assert len(pkt) == size - 4
        ihl = pkt[14:34]
        total = sum(struct.unpack("!10H", ihl))
        assert (total & 0xFFFF) + (total >> 16) == 0xFFFF  # a valid IPv4 header checksum
        assert struct.unpack("!H", ihl[2:4])[0] == size - 4 - 14 and struct.unpack("!H", pkt[38:40])[0] == size - 4 - 34
    s = stream(64, 19531.25)
    assert s["mode"] == {"rate": {"type": "pps", "value": 19531.25}, "type": "continuous"}
    assert base64.b64decode(s["packet"]["binary"]) == udp_packet(64)
    with pytest.raises(TrexError, match="frame size 63"):
        udp_packet(63)


# ---- interrupted and failed collections leave nothing behind

def test_ctrl_c_during_a_trial_stops_traffic_releases_the_ports_and_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    full = exchanges("collect")
    upto = next(i for i, e in enumerate(full) if e[0] == "start_traffic" and e[1]["duration"] == 44.5) + 1
    session = full[:upto] + [["stop_traffic", {"handler": H, "port_id": 0}, "empty_result"],
                             ["remove_all_streams", {"handler": H, "port_id": 0}, "empty_result"], *full[-2:]]
    t = FakeTime()

    def sleep(s: float) -> None:
        if t.now > 88.36:  # the first sleep of the second trial
            raise KeyboardInterrupt
        t.sleep(s)

    monkeypatch.setattr(trex_tape, "pause", sleep)
    monkeypatch.setattr(trex_tape, "monotonic", t.clock)
    with ReplayServer(session) as srv:
        with pytest.raises(KeyboardInterrupt):
            run(tmp_path, "trex-replay", server=srv.address, config=CONFIG, timeout=2)
    assert srv.mismatches == [] and srv.pending == []  # traffic stopped, both ports released
    assert list(tmp_path.iterdir()) == []


def test_a_generator_that_misses_its_rate_fails_and_writes_nothing(tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    config.write_text(CONFIG.read_text().replace("rate_fps = 19531.25", "rate_fps = 30000"))
    full = exchanges("collect")
    first = next(i for i, e in enumerate(full) if e[0] == "start_traffic") + 6
    out = tmp_path / "out"
    with ReplayServer(full[:first] + full[-2:]) as srv:
        with pytest.raises(CollectorError, match=r"^trial 1 \(64 bytes at 30,000.00 frames/s for 88.36 s\): T-Rex sent 1,725,794 frames against 2,650,800 offered"):
            collect(out, srv.address, config=config)
    assert srv.mismatches == [] and srv.pending == []
    assert not out.exists() or list(out.iterdir()) == []


def test_a_licence_the_schema_refuses_stops_the_run_before_it_starts(tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    config.write_text(CONFIG.read_text().replace('status = "draft"', 'status = "draft"\nlicence = "CC BY 4.0"'))
    with pytest.raises(CollectorError, match=r"c\.toml:5: set\.licence: 'CC BY 4\.0' is not an SPDX licence identifier \(e\.g\. CC-BY-4\.0, CC0-1\.0\) \[collect\.trex-config\]$"):
        run(tmp_path, "x", server="127.0.0.1:1", config=config)


@pytest.mark.parametrize("fault", ["invalid", "interrupt"])
def test_a_set_that_fails_validation_or_is_interrupted_while_written_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fault: str) -> None:
    """The set is written into a scratch folder and validated there; a check failing (here a check that
    always finds an error) or Ctrl-C during validation removes the scratch folder and writes no set."""
    import wirespeed.checks
    from wirespeed.problems import Problem

    if fault == "invalid":
        monkeypatch.setattr(wirespeed.checks, "run_checks", lambda rs: [Problem("result.toml", None, "tests", "injected finding", "check.injected")])
    else:
        def interrupted(folder):
            assert (folder / "native/sweep.json").is_file()  # written, not yet in place
            raise KeyboardInterrupt
        import importlib
        monkeypatch.setattr(importlib.import_module("wirespeed.catalog.load"), "load", interrupted)
    out = tmp_path / "out"
    with ReplayServer("collect") as srv:
        with pytest.raises(CollectorError if fault == "invalid" else KeyboardInterrupt) as exc:
            collect(out, srv.address)
    if fault == "invalid":
        assert str(exc.value) == "the collected set does not validate, nothing written: result.toml: tests: injected finding [check.injected]"
    assert srv.pending == [] and list(out.iterdir()) == []  # neither the set nor its scratch folder


def test_an_existing_set_is_never_overwritten(tmp_path: Path) -> None:
    (tmp_path / "trex-replay").mkdir()
    with pytest.raises(CollectorError, match="already exists"):
        collect(tmp_path, "127.0.0.1:1")


# ---- configuration and arguments

def test_config_problems_are_one_line_each_with_file_line_and_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[set]\ntitle = "t"\n[dut]\nvendor = "v"\nmodel = "m"\n[test]\nid = "Bad Id"\ntitle = "t"\nscenario = "ipv4-routing"\n'
                   'port_speed = "fast"\n[trials]\nframe_sizes = [32]\nrates_pct = [10]\nduration_s = 10\n')
    with pytest.raises(CollectorError) as exc:
        run(tmp_path, "x", server="127.0.0.1", config=bad)
    lines = str(exc.value).splitlines()
    assert any(":7: test.id: expected a test id" in ln and ln.endswith("[collect.trex-config]") for ln in lines), lines
    assert any(":12: trials.frame_sizes: expected a list of Ethernet frame sizes" in ln for ln in lines), lines
    assert any(":10: test.port_speed: unknown port speed 'fast'" in ln for ln in lines), lines
    assert [p.name for p in tmp_path.iterdir()] == ["bad.toml"]


def test_a_grid_and_a_ramp_expand_to_the_declared_trials(tmp_path: Path) -> None:
    head = CONFIG.read_text().split("[[trial]]")[0]
    grid = tmp_path / "grid.toml"
    grid.write_text(head + "[trials]\nframe_sizes = [64, 1518]\nrates_pct = [10, 50]\nduration_s = 5\nrepeat = 2\n")
    cfg, probs = read_config(grid)
    assert probs == [] and cfg.mode == "fixed-rate"
    assert [(p.frame_size, p.rate_pct, p.repeat) for p in cfg.trials] == [(f, r, n) for f in (64, 1518) for r in (10.0, 50.0) for n in (1, 2)]
    ramp = tmp_path / "ramp.toml"
    ramp.write_text(head + "[ramp]\nframe_sizes = [64]\nstart_pct = 10\nstop_pct = 100\nsteps = 4\nduration_s = 2\n")
    cfg, probs = read_config(ramp)
    assert probs == [] and cfg.mode == "ramp" and [p.rate_pct for p in cfg.trials] == [10.0, 40.0, 70.0, 100.0]


@pytest.mark.parametrize("text, expected", [("trex1", ("trex1", 4501)), ("10.0.0.2:4600", ("10.0.0.2", 4600)), ("[::1]:4501", ("::1", 4501)), ("[fe80::1]", ("fe80::1", 4501))])
def test_server_addresses(text: str, expected: tuple) -> None:
    assert parse_server(text) == expected


@pytest.mark.parametrize("text", ["host:0", "host:port", "a b", ""])
def test_bad_server_addresses_are_refused(text: str) -> None:
    with pytest.raises(TrexError, match="--server"):
        parse_server(text)


def test_the_cli_prints_one_line_per_problem_and_exits_1(tmp_path: Path) -> None:
    port = free_port()
    proc = run_cli("collect", "trex", "--server", f"127.0.0.1:{port}", "--config", str(CONFIG), "--into", "x", "--root", str(tmp_path))
    assert proc.returncode == 1
    assert proc.stderr.strip() == f"trex: T-Rex server 127.0.0.1:{port}: connection refused (is t-rex-64 -i running, and is this its RPC port?)"
    assert list(tmp_path.iterdir()) == []


def test_fixtures_name_their_source() -> None:
    for name, r in RESPONSES.items():
        assert r["source"] and r["reshaped"], name
        assert r["reply"]["jsonrpc"] == "2.0" and ("result" in r["reply"]) != ("error" in r["reply"]), name
    used = {e[2] for s in SESSIONS.values() for e in s["exchanges"]}
    assert used <= set(RESPONSES)


def test_a_call_cut_short_by_ctrl_c_does_not_wedge_the_next_one() -> None:
    """A REQ socket cannot send again before its reply: after an interrupted call the client opens a new
    one, so the cleanup requests (stop_traffic, release) still reach the server."""

    class CutShort:
        def __init__(self, sock) -> None:
            self.sock, self.cut = sock, False

        def recv(self):
            if not self.cut:
                self.cut = True
                raise KeyboardInterrupt
            return self.sock.recv()

        def __getattr__(self, name):
            return getattr(self.sock, name)

    session = exchanges("collect")[:2] + [["get_version", {"api_h": A}, "get_version"]]
    with ReplayServer(session) as srv:
        client = RpcClient("127.0.0.1", srv.port, timeout_s=2)
        client.connect()
        client._sock = CutShort(client._sock)
        with pytest.raises(KeyboardInterrupt):
            client.call("get_version")
        assert client.call("get_version")["built_by"] == "imarom"
        client.close()
    assert srv.mismatches == [] and srv.pending == []


def test_trial_is_the_search_drivers_interface() -> None:
    """TrexGenerator.trial(frame_bytes, rate_fps, duration_s) -> TrialResult, counted as differences of
    the cumulative counters (trial 2 starts from trial 1's counters, not from zero)."""
    t = FakeTime()
    with ReplayServer("collect") as srv:
        client = RpcClient("127.0.0.1", srv.port, timeout_s=2)
        client.connect()
        client.call("get_version"), client.call("get_system_info")
        gen = TrexGenerator(client, 0, 1, sleep=t.sleep, clock=t.clock)
        gen.acquire()
        first, second = gen.trial(64, 19531.25, 88.36), gen.trial(64, 1000.0, 44.5)
        gen.release()
        client.close()
    assert srv.mismatches == [] and srv.pending == []
    assert (first.tx_frames, first.rx_frames, first.duration_s, first.frame_bytes, first.rate_fps, first.lost_frames) == (1725794, 1725794, 88.36, 64, 19531.25, 0)
    assert (second.tx_frames, second.rx_frames, second.duration_s, second.rate_fps) == (44500, 44500, 44.5, 1000.0)
    assert first.latency_avg_ns is None
    assert gen.speeds_bps == {0: 10e9, 1: 10e9}  # get_port_status "speed": 10000 (Mb/s)
    assert t.slept[:3] == [88.36 - 0.5, 0.5, 0.5]  # run, one poll while transmitting, then frames in flight
    adds = [r for r in srv.requests if r["method"] == "add_stream"]
    assert [a["params"]["stream"]["mode"]["rate"]["value"] for a in adds] == [19531.25, 1000.0]
    starts = [r for r in srv.requests if r["method"] == "start_traffic"]
    assert [s["params"]["duration"] for s in starts] == [88.36, 44.5]


def test_more_trials_than_a_set_can_hold_are_refused_before_connecting(tmp_path: Path) -> None:
    config = tmp_path / "many.toml"
    config.write_text(CONFIG.read_text().split("[[trial]]")[0] + "[ramp]\nframe_sizes = [64, 128, 256]\nstart_pct = 1\nstop_pct = 100\nsteps = 100\nduration_s = 1\n")
    with pytest.raises(CollectorError, match=r"many.toml:\d+: ramp: 300 trials: more than 200 .*\[collect.trex-config\]$"):
        run(tmp_path, "x", server="127.0.0.1:1", config=config)


def test_a_description_the_schema_refuses_is_named_in_the_config_before_connecting(tmp_path: Path) -> None:
    for change, expected in ((('status = "draft"', 'status = "final"'), r"c\.toml:4: set\.status: 'final' is not one of draft, embargoed, published \[collect\.trex-config\]$"),
                             (('vendor = "unknown"', 'vendor = "unknown"\nkind = "gadget"'), r"c\.toml:\d+: dut\.kind: result\.toml would not validate: 'gadget' is not one of")):
        config = tmp_path / "c.toml"
        config.write_text(CONFIG.read_text().replace(*change))
        with pytest.raises(CollectorError) as exc:
            run(tmp_path, "x", server="127.0.0.1:1", config=config)  # nothing listens on port 1: the checks come first
        lines = str(exc.value).splitlines()
        assert any(re.search(expected, ln) for ln in lines), lines
        assert [p.name for p in tmp_path.iterdir()] == ["c.toml"]
