"""The files of deploy/ checked by the operators' own tools, as a server would read them.

systemd-analyze, promtool, caddy and nginx are Debian's packages; `scripts/ensure-services`
installs them where missing (on CI too), so these tests run everywhere `make test` runs.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

DEPLOY = Path(__file__).parents[2] / "deploy"
README = Path(__file__).parents[2] / "README.md"
TOOLS = {
    "systemd-analyze": "/usr/bin/systemd-analyze",
    "promtool": "/usr/bin/promtool",
    "caddy": "/usr/bin/caddy",
    "nginx": "/usr/sbin/nginx",
}
TIMEOUT_S = 120


def _tool(name: str) -> str:
    found = TOOLS[name] if Path(TOOLS[name]).exists() else shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed: scripts/ensure-services installs it")
    return found


def _run(*command: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(part) for part in command],
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
        cwd=cwd,
        env={"PATH": "/usr/sbin:/usr/bin:/bin", "HOME": str(cwd or Path.cwd())},
    )


def _exposure(report: str) -> float:
    found = re.search(r"Overall exposure level for \S+: ([0-9.]+)", report)
    assert found is not None, report
    return float(found.group(1))


def test_the_bot_s_unit_is_rated_ok_by_systemd_analyze_security() -> None:
    unit = DEPLOY / "mafiatour.service"
    done = _run(_tool("systemd-analyze"), "security", "--offline=true", unit)
    assert _exposure(done.stdout) <= 3.0, done.stdout
    lines = unit.read_text().splitlines()
    # What the issue names, each one (a lower figure reached otherwise would not do).
    for line in (
        "ProtectKernelTunables=yes",
        "ProtectKernelModules=yes",
        "ProtectKernelLogs=yes",
        "ProtectControlGroups=yes",
        "PrivateDevices=yes",
        "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6",
        "RestrictNamespaces=yes",
        "LockPersonality=yes",
        "MemoryDenyWriteExecute=yes",
        "SystemCallFilter=@system-service",
        "CapabilityBoundingSet=",
    ):
        assert line in lines, line


@pytest.mark.parametrize(
    "unit", ["mafiatour.service", "mafiatour-backup.service", "mafiatour-backup.timer"]
)
def test_the_units_pass_systemd_analyze_verify(unit: str, tmp_path: Path) -> None:
    # verify wants the programs the units start: the checkout's paths, stood in for here.
    venv_bin = tmp_path / ".venv" / "bin"
    venv_bin.mkdir(parents=True)
    (venv_bin / "mafiatour").write_text("#!/bin/sh\n")
    (venv_bin / "mafiatour").chmod(0o755)
    copies = tmp_path / "units"
    copies.mkdir()
    for source in DEPLOY.glob("mafiatour*.[st]*"):
        text = source.read_text().replace("/opt/mafiatour", str(tmp_path))
        (copies / source.name).write_text(text)
    done = _run(_tool("systemd-analyze"), "verify", "--man=no", copies / unit, cwd=copies)
    problems = [line for line in done.stderr.splitlines() if unit in line or "Unknown" in line]
    assert done.returncode == 0 and problems == [], done.stderr


def test_the_alert_rules_pass_promtool_and_watch_metrics_the_bot_serves() -> None:
    rules = DEPLOY / "mafiatour-alerts.yml"
    done = _run(_tool("promtool"), "check", "rules", rules)
    assert done.returncode == 0, done.stdout + done.stderr
    # Each rule is `- alert: NAME` followed by its one-line `expr:` (promtool read them).
    alerts = dict(re.findall(r"- alert: (\w+)\n\s+expr: (.+)", rules.read_text()))
    assert f"SUCCESS: {len(alerts)} rules found" in done.stdout
    assert {
        "MafiatourNotReady",
        "MafiatourOutboxStuck",
        "MafiatourTelegramFloodLimits",
        "MafiatourHandlerErrors",
        "MafiatourSchedulerLate",
        "MafiatourBackupOld",
    } <= set(alerts)
    # Every metric a rule reads is one the README's table documents (the e2e test of
    # /metrics, tests/e2e/test_health_metrics.py, scrapes them all from a running bot).
    documented = set(re.findall(r"^\| `(mafiatour_\w+)", README.read_text(), re.MULTILINE))
    used = {name for expr in alerts.values() for name in re.findall(r"mafiatour_\w+", expr)}
    assert used and used <= documented, used - documented


def test_the_caddy_sample_is_valid(tmp_path: Path) -> None:
    done = _run(
        _tool("caddy"),
        "validate",
        "--adapter",
        "caddyfile",
        "--config",
        DEPLOY / "Caddyfile",
        cwd=tmp_path,
    )
    assert done.returncode == 0 and "Valid configuration" in done.stdout + done.stderr, (
        done.stdout + done.stderr
    )


def _self_signed(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "cert.pem", folder / "key.pem"
    done = _run(
        "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
        "-subj", "/CN=bot.example.org", "-keyout", key, "-out", cert,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return cert, key


def test_the_nginx_sample_passes_nginx_t(tmp_path: Path) -> None:
    nginx = _tool("nginx")
    cert, key = _self_signed(tmp_path)
    site = (DEPLOY / "nginx-mafiatour.conf").read_text()
    site = site.replace("/etc/letsencrypt/live/bot.example.org/fullchain.pem", str(cert))
    site = site.replace("/etc/letsencrypt/live/bot.example.org/privkey.pem", str(key))
    (tmp_path / "site.conf").write_text(site)
    # The http block of Debian's /etc/nginx/nginx.conf, reduced to what the site needs.
    (tmp_path / "nginx.conf").write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log stderr;\nevents {{}}\n"
        f"http {{\n  include {tmp_path}/site.conf;\n}}\n"
    )
    done = _run(nginx, "-t", "-p", tmp_path, "-e", "stderr", "-c", tmp_path / "nginx.conf")
    assert done.returncode == 0 and "test is successful" in done.stderr, done.stderr


@pytest.mark.parametrize("sample", ["Caddyfile", "nginx-mafiatour.conf"])
def test_the_proxies_keep_metrics_private_and_stream_events_unbuffered(sample: str) -> None:
    text = (DEPLOY / sample).read_text()
    assert re.search(r"/metrics.*(respond|return)", text, re.DOTALL), "metrics not private"
    events = "flush_interval -1" if sample == "Caddyfile" else "proxy_buffering off"
    assert events in text
