//! A throwaway PostgreSQL server for tests, from the machine's own
//! installation (Debian's `postgresql` package).
//!
//! [`Server::start`] makes a temporary directory, runs `initdb` into it
//! (trust authentication, superuser `postgres`, no fsync) and starts the
//! server on a Unix socket in that directory, with no TCP port. Dropping
//! the [`Server`] stops it at once (an immediate shutdown, as `pg_ctl stop
//! -m immediate` does), waits for every one of its processes, and removes
//! the directory. [`Server::shared`] hands the tests of one test binary one
//! server between them; each test then makes a database or schema of its
//! own on it.
//!
//! The server is this process's grandchild, not a daemon: a small shell
//! started by [`Server::start`] runs `postgres` in the background and waits
//! on its own standard input, a pipe from here. Closing the pipe (a stop,
//! a drop) makes it shut the server down and reap it; so does the end of
//! this process, however it ends. A test binary killed for taking too long
//! leaves no server behind. (`pg_ctl start` would hand the server over to
//! init: nobody here could reap it, and a killed test would leave it
//! running.)
//!
//! `initdb` refuses to run as root. Under root (a CI container) every
//! PostgreSQL program runs as the `postgres` user the package creates, and
//! the directory is given to that user.

use parking_lot::Mutex;
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

/// How to install what is missing, in every "not installed" message.
const INSTALL: &str = "install it: `apt-get install postgresql` (Debian, Ubuntu; as root)";
/// How long a start may take before it counts as failed: seconds at worst
/// (crash recovery after an immediate stop included).
const START_LIMIT: Duration = Duration::from_secs(60);
/// The port: part of the socket's file name only (there is no TCP).
pub const PORT: u16 = 5432;

/// Why a server could not be had.
#[derive(Debug)]
pub enum PgError {
    /// No PostgreSQL installation was found; the message says where it was
    /// looked for and how to install it.
    NotInstalled(String),
    /// Running as root, and there is no `postgres` user to run the server
    /// as (`initdb` refuses root).
    NoPostgresUser,
    /// A program did not run, or failed; with what it printed.
    Failed {
        /// What was being done (`initdb`, `start`, `psql`).
        what: String,
        /// Its error, or the end of its output or of the server's log.
        detail: String,
    },
}

impl fmt::Display for PgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgError::NotInstalled(looked) => {
                write!(f, "PostgreSQL is not installed ({looked}); {INSTALL}")
            }
            PgError::NoPostgresUser => write!(
                f,
                "running as root, and initdb refuses root: no `postgres` user to run the \
                 server as; {INSTALL} (the package creates the user)"
            ),
            PgError::Failed { what, detail } => write!(f, "PostgreSQL: {what} failed: {detail}"),
        }
    }
}

impl std::error::Error for PgError {}

fn failed(what: &str, detail: impl fmt::Display) -> PgError {
    PgError::Failed {
        what: what.to_owned(),
        detail: detail.to_string(),
    }
}

/// The directory holding `initdb`, `postgres` and `psql`: the newest
/// `/usr/lib/postgresql/<version>/bin` (Debian's layout), else what
/// `pg_config --bindir` says, else wherever `initdb` is on the `PATH`.
///
/// # Errors
/// [`PgError::NotInstalled`] if none of those has an `initdb`.
pub fn bindir() -> Result<PathBuf, PgError> {
    let has_initdb = |dir: &Path| dir.join("initdb").is_file();
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let version = e.file_name().to_str()?.parse().ok()?;
            Some((version, e.path().join("bin")))
        })
        .filter(|(_, bin)| has_initdb(bin))
        .collect();
    versions.sort();
    if let Some((_, bin)) = versions.pop() {
        return Ok(bin);
    }
    let from_pg_config = Command::new("pg_config")
        .arg("--bindir")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    let on_path = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default();
    from_pg_config
        .into_iter()
        .chain(on_path)
        .find(|dir| has_initdb(dir))
        .ok_or_else(|| {
            PgError::NotInstalled(
                "no initdb in /usr/lib/postgresql/*/bin, from pg_config, or on the PATH".into(),
            )
        })
}

/// The user the PostgreSQL programs run as: `None` for this process's own
/// user, or the `postgres` user's ids when this process runs as root.
fn owner() -> Result<Option<(u32, u32)>, PgError> {
    if !nix::unistd::geteuid().is_root() {
        return Ok(None);
    }
    match nix::unistd::User::from_name("postgres") {
        Ok(Some(user)) => Ok(Some((user.uid.as_raw(), user.gid.as_raw()))),
        _ => Err(PgError::NoPostgresUser),
    }
}

/// The keeper, a shell script: `postgres` in the background (its standard
/// input is /dev/null, as for any background job of a script; its output
/// goes to the log) and its pid on our pipe; then a read of our pipe, which
/// returns when we write `keep` (a [`Server::stop`]) or when our end closes
/// (this process ended, however); then SIGQUIT, PostgreSQL's immediate
/// shutdown, and a wait for the server. Unless told to keep it, it also
/// removes the directory, which a killed process could not.
const KEEPER: &str = r#"dir=$1; shift
"$@" 1>&2 & pid=$!
echo "$pid"
read -r how
kill -QUIT "$pid"; wait "$pid"
[ "$how" = keep ] || rm -rf "$dir""#;

/// A server that is up: the shell that keeps it, and the pipe whose end
/// stops it.
struct Running {
    keeper: Child,
    pipe: ChildStdin,
    postmaster: u32,
}

/// A PostgreSQL server of a test's own, in a temporary directory; stopped,
/// reaped and removed on drop. See the [module](self) page.
pub struct Server {
    bin: PathBuf,
    owner: Option<(u32, u32)>,
    running: Mutex<Option<Running>>,
    initdb_took: Duration,
    started_in: Mutex<Duration>,
    // Last: removed after the server has stopped.
    dir: tempfile::TempDir,
}

impl fmt::Debug for Server {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Server")
            .field("dir", &self.dir.path())
            .field("postmaster", &self.postmaster_pid())
            .finish()
    }
}

impl Server {
    /// A new server of its own: `initdb`, then started.
    ///
    /// # Errors
    /// No installation, no `postgres` user under root, or a program that
    /// failed (with its output or the server's log).
    pub fn start() -> Result<Server, PgError> {
        let bin = bindir()?;
        let owner = owner()?;
        let dir = tempfile::Builder::new()
            .prefix("kit-pg-")
            .tempdir()
            .map_err(|e| failed("making a temporary directory", e))?;
        if let Some((uid, gid)) = owner {
            std::os::unix::fs::chown(dir.path(), Some(uid), Some(gid))
                .map_err(|e| failed("giving the directory to the postgres user", e))?;
        }
        let mut server = Server {
            bin,
            owner,
            running: Mutex::new(None),
            initdb_took: Duration::ZERO,
            started_in: Mutex::new(Duration::ZERO),
            dir,
        };
        let t = Instant::now();
        // `--no-locale`: the C collation and messages on every machine, so
        // that text sorts and errors read the same everywhere.
        let data = server.data_dir();
        let initdb = server
            .command("initdb")
            .args(["-A", "trust", "-U", "postgres", "--no-sync", "--no-locale"])
            .args(["-E", "UTF8", "--no-instructions", "-D"])
            .arg(&data)
            .output()
            .map_err(|e| failed("initdb", e))?;
        if !initdb.status.success() {
            let said = String::from_utf8_lossy(&initdb.stderr).into_owned();
            return Err(failed("initdb", tail(&said, 10)));
        }
        server.initdb_took = t.elapsed();
        server.start_again()?;
        Ok(server)
    }

    /// The server the tests of this process share, started by the first
    /// call that finds none; stopped when the last test lets go of it.
    ///
    /// # Errors
    /// As [`Server::start`].
    pub fn shared() -> Result<Arc<Server>, PgError> {
        static SHARED: Mutex<Weak<Server>> = Mutex::new(Weak::new());
        // Held while a server starts, so that tests arriving meanwhile wait
        // for it rather than start servers of their own.
        let mut shared = SHARED.lock();
        if let Some(server) = shared.upgrade() {
            return Ok(server);
        }
        let server = Arc::new(Server::start()?);
        *shared = Arc::downgrade(&server);
        Ok(server)
    }

    /// Starts the server on its data directory: after [`Server::stop`], it
    /// comes back with everything committed before (recovering, as after a
    /// crash). Returns how long it took to accept connections.
    ///
    /// # Errors
    /// If it is already running, or does not come up (with its log).
    pub fn start_again(&self) -> Result<Duration, PgError> {
        let mut running = self.running.lock();
        if running.is_some() {
            return Err(failed("start", "the server is already running"));
        }
        let t = Instant::now();
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.log_file())
            .map_err(|e| failed("opening the server's log", e))?;
        let log2 = log.try_clone().map_err(|e| failed("start", e))?;
        let mut keeper = self
            .command_at(Path::new("/bin/sh"))
            .args(["-c", KEEPER, "kit-pg"])
            .arg(self.dir.path())
            .arg(self.bin.join("postgres"))
            .arg("-D")
            .arg(self.data_dir())
            .arg("-k")
            .arg(self.socket_dir())
            .args(["-p", &PORT.to_string()])
            .args(["-c", "listen_addresses=", "-c", "fsync=off"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(log2)
            .spawn()
            .map_err(|e| failed("start", e))?;
        drop(log);
        let pipe = keeper.stdin.take().expect("stdin was piped");
        let mut line = String::new();
        let read = keeper.stdout.take().map(BufReader::new).map(|mut out| {
            out.read_line(&mut line)
                .map(|_| line.trim().parse::<u32>().ok())
        });
        let Some(Ok(Some(postmaster))) = read else {
            drop(pipe);
            let _ = keeper.wait();
            return Err(failed("start", "the keeper shell printed no pid"));
        };
        let up = Running {
            keeper,
            pipe,
            postmaster,
        };
        if let Err(why) = self.wait_ready(postmaster) {
            stop_running(up);
            return Err(failed(
                "start",
                format!("{why}; its log ends:\n{}", self.log_tail()),
            ));
        }
        *running = Some(up);
        let took = t.elapsed();
        *self.started_in.lock() = took;
        Ok(took)
    }

    /// Polls `postmaster.pid` until the server says it is ready (its status
    /// line, the eighth), or its process is gone.
    fn wait_ready(&self, postmaster: u32) -> Result<(), String> {
        let pid_file = self.data_dir().join("postmaster.pid");
        let deadline = Instant::now() + START_LIMIT;
        loop {
            let ready = std::fs::read_to_string(&pid_file)
                .is_ok_and(|s| s.lines().nth(7).is_some_and(|l| l.trim() == "ready"));
            if ready {
                return Ok(());
            }
            if !alive(postmaster) {
                return Err("the server exited".into());
            }
            if Instant::now() > deadline {
                return Err(format!("not ready after {START_LIMIT:?}"));
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Stops the server at once (PostgreSQL's immediate shutdown: what a
    /// crash leaves, nothing flushed), and waits until the server and every
    /// process it started have exited. The data directory stays, for
    /// [`Server::start_again`]. Returns how long the stop took; zero if it
    /// was not running.
    pub fn stop(&self) -> Duration {
        let t = Instant::now();
        match self.running.lock().take() {
            Some(running) => {
                stop_running(running);
                t.elapsed()
            }
            None => Duration::ZERO,
        }
    }

    /// Whether the server is running (started, not stopped).
    pub fn is_running(&self) -> bool {
        self.running.lock().is_some()
    }

    /// The server's main process (the postmaster), while it runs.
    pub fn postmaster_pid(&self) -> Option<u32> {
        self.running.lock().as_ref().map(|r| r.postmaster)
    }

    /// The server's processes: the postmaster and the processes it started
    /// (its background workers and one per connection). Empty if stopped.
    pub fn processes(&self) -> Vec<u32> {
        let Some(postmaster) = self.postmaster_pid() else {
            return Vec::new();
        };
        let mut pids = vec![postmaster];
        pids.extend(children_of(postmaster));
        pids
    }

    /// A connection string for `database` (libpq's URI form, which `psql`
    /// and the `postgres` crate both read): user `postgres`, over the
    /// socket.
    pub fn url(&self, database: &str) -> String {
        // The socket's directory as the URI's host, percent-encoded: every
        // byte but the unreserved ones (so `/` is `%2F`).
        let host: String = self
            .socket_dir()
            .as_os_str()
            .as_encoded_bytes()
            .iter()
            .map(|&b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                    char::from(b).to_string()
                }
                b => format!("%{b:02X}"),
            })
            .collect();
        format!("postgresql://postgres@{host}:{PORT}/{database}")
    }

    /// Runs `sql` with `psql` in `database`, stopping at the first error;
    /// returns what it printed, unaligned, without headers.
    ///
    /// # Errors
    /// If `psql` fails, with what it said.
    pub fn psql(&self, database: &str, sql: &str) -> Result<String, PgError> {
        let out = self
            .command("psql")
            .args(["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1"])
            .args(["-d", &self.url(database), "-c", sql])
            .output()
            .map_err(|e| failed("psql", e))?;
        if !out.status.success() {
            return Err(failed("psql", String::from_utf8_lossy(&out.stderr).trim()));
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// The directory the server's socket is in (and its data under it).
    pub fn socket_dir(&self) -> &Path {
        self.dir.path()
    }

    /// The data directory `initdb` made.
    pub fn data_dir(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    /// How long `initdb` took.
    pub fn initdb_took(&self) -> Duration {
        self.initdb_took
    }

    /// How long the last start took, until the server accepted connections.
    pub fn started_in(&self) -> Duration {
        *self.started_in.lock()
    }

    fn log_file(&self) -> PathBuf {
        self.dir.path().join("server.log")
    }

    fn log_tail(&self) -> String {
        tail(
            &std::fs::read_to_string(self.log_file()).unwrap_or_default(),
            10,
        )
    }

    /// One of the installation's programs, as the user that runs them.
    fn command(&self, program: &str) -> Command {
        self.command_at(&self.bin.join(program))
    }

    fn command_at(&self, program: &Path) -> Command {
        let mut cmd = Command::new(program);
        // A directory the postgres user can enter (not, say, /root/...).
        cmd.current_dir(self.dir.path());
        if let Some((uid, gid)) = self.owner {
            cmd.uid(uid).gid(gid);
        }
        cmd
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Tells the keeper to stop the server and keep its directory, and reaps
/// it; it exits only once the postmaster has, and the postmaster only
/// after every process it started.
fn stop_running(running: Running) {
    let Running {
        mut keeper,
        mut pipe,
        ..
    } = running;
    // An error means the keeper is gone already: the wait says so.
    let _ = pipe.write_all(b"keep\n");
    drop(pipe);
    let _ = keeper.wait();
}

/// Whether process `pid` exists and is not a zombie.
pub fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        // The state follows the command name's closing parenthesis.
        stat.rsplit_once(')')
            .is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z'))
    })
}

/// The processes whose parent is `pid`.
fn children_of(pid: u32) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|child| {
            std::fs::read_to_string(format!("/proc/{child}/stat")).is_ok_and(|stat| {
                stat.rsplit_once(')')
                    .and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<u32>().ok())
                    == Some(pid)
            })
        })
        .collect()
}

fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}
