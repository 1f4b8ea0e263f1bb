"""`scripts/ensure-services` (run by `make test`) on machines without PostgreSQL or Redis.

The machine is played by stand-in commands on PATH: `id` says who we are, `apt-get` records
what it was asked to install and "installs" it by adding the stand-ins of the installed tools,
and the servers answer once started. Nothing real is installed or started.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).parents[2] / "scripts" / "ensure-services"
BASH = shutil.which("bash") or "/bin/bash"
# The ordinary tools the script uses, taken from the real machine.
REAL_TOOLS = ("awk", "seq", "sleep", "sed", "mkdir", "cat", "touch", "cp")


class Machine:
    def __init__(self, root: Path) -> None:
        self.bin = root / "bin"
        self.state = root / "state"
        self.bin.mkdir()
        self.state.mkdir()
        self.hba = root / "pg_hba.conf"
        self.hba.write_text("local all postgres peer\n", encoding="utf-8")
        for tool in REAL_TOOLS:
            found = shutil.which(tool)
            assert found is not None, tool
            (self.bin / tool).symlink_to(found)

    def command(self, name: str, body: str, folder: Path | None = None) -> None:
        path = (folder or self.bin) / name
        path.write_text(f"#!{BASH}\n{body}\n", encoding="utf-8")
        path.chmod(path.stat().st_mode | stat.S_IEXEC)

    def user(self, uid: int) -> None:
        self.command("id", f"echo {uid}")

    def postgres_installed(self, folder: Path | None = None) -> None:
        state = self.state
        self.command(
            "pg_lsclusters", "echo '15 main 5432 down postgres /var/lib/x /var/log/x'", folder
        )
        self.command("pg_isready", f"test -e {state}/postgres-up", folder)
        self.command(
            "pg_ctlcluster",
            f'echo "$@" >> {state}/pg_ctlcluster; touch {state}/postgres-up',
            folder,
        )
        self.command(
            "runuser",
            f'echo "$@" >> {state}/runuser; case "$*" in *hba_file*) echo {self.hba};; esac',
            folder,
        )

    def redis_installed(self, folder: Path | None = None) -> None:
        self.command("redis-cli", f"test -e {self.state}/redis-up", folder)
        self.command("redis-server", f"touch {self.state}/redis-up", folder)

    def apt_get(self) -> None:
        """An apt-get whose install adds the packages' stand-in tools to PATH."""
        packages = self.state / "packages"
        for name, install in (
            ("postgresql", self.postgres_installed),
            ("redis", self.redis_installed),
        ):
            (packages / name).mkdir(parents=True)
            install(packages / name)
        self.command(
            "apt-get",
            f'echo "$@" >> {self.state}/apt-get\n'
            f'case "$*" in *postgresql-client*) cp {packages}/postgresql/* {self.bin}/ ;; '
            f"*redis-server*) cp {packages}/redis/* {self.bin}/ ;; esac",
        )

    def run(self, **env: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [BASH, str(SCRIPT)],
            env={"PATH": str(self.bin), "HOME": str(self.state), **env},
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    def log(self, name: str) -> list[str]:
        path = self.state / name
        return path.read_text(encoding="utf-8").splitlines() if path.exists() else []


@pytest.fixture
def machine(tmp_path: Path) -> Machine:
    return Machine(tmp_path)


def test_without_postgresql_and_not_root_it_stops_with_one_line(machine: Machine) -> None:
    machine.user(1000)
    done = machine.run()
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "ensure-services: PostgreSQL is not installed: install it (sudo apt-get install "
        "postgresql) or set MAFIATOUR_TEST_POSTGRES_URL to a server"
    ]


def test_without_redis_and_not_root_it_names_redis(machine: Machine) -> None:
    machine.user(1000)
    machine.postgres_installed()
    done = machine.run()
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "ensure-services: Redis is not installed: install it (sudo apt-get install redis-server)"
    ]
    assert machine.log("pg_ctlcluster") == ["--skip-systemctl-redirect 15 main start"]


def test_as_root_it_installs_both_starts_them_and_lets_the_tests_connect(
    machine: Machine,
) -> None:
    machine.user(0)
    machine.apt_get()
    done = machine.run()
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert machine.log("apt-get") == [
        "update -qq",
        "install -y -qq postgresql postgresql-client",
        "update -qq",
        "install -y -qq redis-server",
    ]
    assert machine.log("pg_ctlcluster") == ["--skip-systemctl-redirect 15 main start"]
    # Password-less TCP access for the tests, and their database.
    assert machine.hba.read_text(encoding="utf-8").splitlines()[0] == (
        "host all postgres 127.0.0.1/32 trust"
    )
    assert "-u postgres -- createdb test" in machine.log("runuser")
    assert (machine.state / "redis-up").exists()


def test_running_services_are_left_alone(machine: Machine) -> None:
    machine.user(1000)
    machine.postgres_installed()
    machine.redis_installed()
    (machine.state / "postgres-up").touch()
    (machine.state / "redis-up").touch()
    done = machine.run()
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert machine.log("pg_ctlcluster") == []


def test_another_server_is_only_checked(machine: Machine) -> None:
    machine.user(1000)
    machine.redis_installed()
    (machine.state / "redis-up").touch()
    machine.command("pg_isready", f'echo "$@" >> {machine.state}/pg_isready; exit 2')
    done = machine.run(MAFIATOUR_TEST_POSTGRES_URL="postgresql+asyncpg://u:p@db.example:5433/t")
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "ensure-services: MAFIATOUR_TEST_POSTGRES_URL does not answer: start that PostgreSQL server"
    ]
    assert machine.log("pg_isready") == ["-q -d postgresql://u:p@db.example:5433/t"]


def test_the_script_is_executable() -> None:
    assert os.access(SCRIPT, os.X_OK)
