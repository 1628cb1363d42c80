# shellcheck shell=bash
# Sourced by bin/start. Reads RANDOM_PORTS (true: never the preferred port) and PORTS_RESERVED (the
# folder of reservations, shared by every bin/start of the machine).

# port PREFERRED: PREFERRED when it is free on 127.0.0.1, else (or with --random-ports) a free port
# below the kernel's ephemeral range, where no client's outgoing connection can take it before the
# service binds it (as testkit's FreePorts); a port other than PREFERRED is said, so the banner's and
# the context's addresses are the ones to use. The port is reserved for this bin/start until it ends
# (a file named by the port under $TMPDIR/lahar-ports holding its pid, written under a lock): a port
# is chosen minutes before its service binds it, and a second bin/start started meanwhile took the
# same one.
port() {
  python3 - "$1" "$RANDOM_PORTS" "$$" "$PORTS_RESERVED" <<'PY'
import fcntl, os, random, socket, sys
preferred, random_only, owner, folder = int(sys.argv[1]), sys.argv[2] == "true", int(sys.argv[3]), sys.argv[4]
os.makedirs(folder, exist_ok=True)

def reserved(port):
    try:
        with open(os.path.join(folder, str(port))) as f:
            pid = int(f.read())
    except (OSError, ValueError):
        return False
    if pid == owner:
        return False
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True

def bindable(port, reuse):
    s = socket.socket()
    try:
        if reuse:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", port))
        return True
    except OSError:
        return False
    finally:
        s.close()

with open(os.path.join(folder, ".lock"), "w") as lock:
    fcntl.flock(lock, fcntl.LOCK_EX)
    chosen = None
    if not random_only and not reserved(preferred) and bindable(preferred, True):
        chosen = preferred
    else:
        low = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])
        ports = list(range(20000, low)) if low - 20000 >= 1000 else list(range(61000, 65536))
        random.shuffle(ports)
        chosen = next(p for p in ports if not reserved(p) and bindable(p, False))
        if not random_only:
            print(f"\033[1m[lahar]\033[0m port {preferred} is taken: using {chosen} instead", file=sys.stderr)
    with open(os.path.join(folder, str(chosen)), "w") as f:
        f.write(str(owner))
    print(chosen)
PY
}
