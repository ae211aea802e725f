//! What the workspace holds, asked of cargo itself: its packages and their
//! targets (`cargo metadata`), and the test executables a build produced
//! (`--message-format=json`). Both are read with `cargo_metadata`, whose
//! types follow cargo's own.

use crate::cmd::{Cmd, Result, describe};
use cargo_metadata::{Message, MetadataCommand};
use std::io::BufReader;
use std::path::{Path, PathBuf};

/// A workspace member.
pub struct Package {
    /// Its cargo id, as build messages name it.
    pub id: String,
    /// Its name (`condvar-timer`).
    pub name: String,
    /// The directory holding its `Cargo.toml`.
    pub dir: PathBuf,
    /// Its targets.
    pub targets: Vec<Target>,
}

/// One target of a package.
pub struct Target {
    /// Its name (`c1_lost_wakeup`).
    pub name: String,
    /// Its kinds (`lib`, `test`, `example`, `bench`, `bin`).
    pub kinds: Vec<String>,
}

impl Package {
    /// True if the package has a target of this kind and name.
    pub fn has(&self, kind: &str, name: &str) -> bool {
        self.targets
            .iter()
            .any(|t| t.name == name && t.kinds.iter().any(|k| k == kind))
    }

    /// The names of its integration tests that are loom models: those named
    /// `loom_*`, and a bug's own test file (`w5_publication_race.rs`) when
    /// loom is the only way to show that bug, so the whole file is
    /// `#![cfg(loom)]`.
    pub fn loom_tests(&self) -> Vec<String> {
        self.targets
            .iter()
            .filter(|t| t.kinds.iter().any(|k| k == "test"))
            .filter(|t| t.name.starts_with("loom_") || self.loom_only(&t.name))
            .map(|t| t.name.clone())
            .collect()
    }

    /// True if `tests/<name>.rs` compiles only under `--cfg loom`.
    fn loom_only(&self, name: &str) -> bool {
        std::fs::read_to_string(self.dir.join("tests").join(format!("{name}.rs")))
            .is_ok_and(|text| text.lines().any(|l| l.trim() == "#![cfg(loom)]"))
    }
}

/// The workspace members, as `cargo metadata --no-deps` lists them, in
/// teaching order.
pub fn workspace() -> Result<Vec<Package>> {
    let meta = MetadataCommand::new()
        .cargo_path(crate::cmd::cargo_bin())
        .manifest_path(crate::cmd::root().join("Cargo.toml"))
        .no_deps()
        .exec()
        .map_err(|e| e.to_string())?;
    let mut packages: Vec<Package> = meta
        .packages
        .into_iter()
        .map(|p| Package {
            dir: p
                .manifest_path
                .parent()
                .map(PathBuf::from)
                .unwrap_or_default(),
            id: p.id.repr,
            name: p.name.to_string(),
            targets: p
                .targets
                .into_iter()
                .map(|t| Target {
                    name: t.name,
                    kinds: t.kind.iter().map(ToString::to_string).collect(),
                })
                .collect(),
        })
        .collect();
    // Teaching order: as the root Cargo.toml lists the members. cargo
    // reports them in the order it found them, path dependencies first
    // (`kit` before `sleep-based`), so its `workspace_members` will not do.
    let text = std::fs::read_to_string(crate::cmd::root().join("Cargo.toml")).unwrap_or_default();
    let order = member_order(&text);
    packages.sort_by_key(|p| {
        let dir = p.dir.strip_prefix(crate::cmd::root()).unwrap_or(&p.dir);
        order
            .iter()
            .position(|m| Path::new(m) == dir)
            .unwrap_or(usize::MAX)
    });
    Ok(packages)
}

/// The `members = [...]` of a root Cargo.toml, in the order written: the
/// one TOML value this crate reads itself, not worth a TOML parser.
fn member_order(manifest: &str) -> Vec<String> {
    let Some(start) = manifest
        .lines()
        .position(|l| l.trim_start().starts_with("members") && l.contains('='))
    else {
        return Vec::new();
    };
    let mut members = Vec::new();
    for line in manifest.lines().skip(start) {
        let line = line.split('#').next().unwrap_or_default();
        let (line, end) = match line.split_once(']') {
            Some((before, _)) => (before, true),
            None => (line, false),
        };
        members.extend(line.split('"').skip(1).step_by(2).map(String::from));
        if end {
            break;
        }
    }
    members
}

/// A test executable cargo built.
#[derive(Clone)]
pub struct TestExe {
    /// The package it belongs to.
    pub package: String,
    /// The package's directory (tests run from there, as under `cargo test`).
    pub package_dir: PathBuf,
    /// The target's name.
    pub target: String,
    /// The target's kind (`test` for `tests/*.rs`, `lib` for unit tests).
    pub kind: String,
    /// The executable.
    pub path: PathBuf,
}

impl TestExe {
    /// How a student selects this target: `condvar-timer --test c1_lost_wakeup`.
    pub fn selector(&self) -> String {
        match self.kind.as_str() {
            "lib" => format!("{} --lib", self.package),
            "test" => format!("{} --test {}", self.package, self.target),
            other => format!("{} --{other} {}", self.package, self.target),
        }
    }

    /// The command that runs this executable from its package's directory,
    /// with the environment `cargo test` would give it.
    pub fn cmd(&self, args: &[&str]) -> Cmd {
        Cmd::new(&self.path.to_string_lossy(), args)
            .dir(&self.package_dir)
            .env("CARGO_MANIFEST_DIR", &self.package_dir.to_string_lossy())
    }
}

/// Runs a `cargo test ... --no-run --message-format=json` build and returns
/// the test executables it produced, in build order. The compiler's
/// warnings and errors are printed as cargo would have printed them.
pub fn test_executables(build: Cmd, packages: &[Package]) -> Result<Vec<TestExe>> {
    println!("$ {}", build.display());
    let mut child = build.spawn_reading()?;
    let stdout = child.stdout.take().expect("spawn_reading pipes stdout");
    let mut exes = Vec::new();
    for message in Message::parse_stream(BufReader::new(stdout)) {
        let message = message.map_err(|e| format!("`{}`: {e}", build.display()))?;
        let artifact = match message {
            Message::CompilerArtifact(artifact) => artifact,
            Message::CompilerMessage(msg) => {
                if let Some(rendered) = &msg.message.rendered {
                    eprint!("{rendered}");
                }
                continue;
            }
            _ => continue,
        };
        let Some(path) = artifact.executable.filter(|_| artifact.profile.test) else {
            continue;
        };
        let Some(package) = packages.iter().find(|p| p.id == artifact.package_id.repr) else {
            continue;
        };
        exes.push(TestExe {
            package: package.name.clone(),
            package_dir: package.dir.clone(),
            target: artifact.target.name,
            kind: artifact
                .target
                .kind
                .first()
                .map(ToString::to_string)
                .unwrap_or_default(),
            path: path.into(),
        });
    }
    let status = child
        .wait()
        .map_err(|e| format!("`{}`: {e}", build.display()))?;
    if !status.success() {
        return Err(format!(
            "`{}` failed ({})",
            build.display(),
            describe(status)
        ));
    }
    Ok(exes)
}

/// The ignored tests of a test executable (`--ignored --list --format terse`).
pub fn ignored_tests(exe: &TestExe) -> Result<Vec<String>> {
    listed(exe, &["--ignored", "--list", "--format", "terse"])
}

/// The tests of a test executable that run by default: all it lists, less
/// the ignored ones.
pub fn default_tests(exe: &TestExe) -> Result<Vec<String>> {
    let ignored = ignored_tests(exe)?;
    Ok(listed(exe, &["--list", "--format", "terse"])?
        .into_iter()
        .filter(|t| !ignored.contains(t))
        .collect())
}

fn listed(exe: &TestExe, args: &[&str]) -> Result<Vec<String>> {
    let text = exe.cmd(args).read()?;
    Ok(text
        .lines()
        .filter_map(|l| l.strip_suffix(": test"))
        .map(String::from)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_in_the_order_written() {
        let manifest = r#"
[workspace]
resolver = "3"
# The stages, in teaching order: members below.
members = [
    "naive",
    "sleep-based", # the second stage
    # "not-yet",
    "kit", "xtask",
]
default-members = ["kit"]
"#;
        assert_eq!(
            member_order(manifest),
            ["naive", "sleep-based", "kit", "xtask"]
        );
        assert_eq!(member_order(r#"members = ["a", "b"]"#), ["a", "b"]);
    }

    #[test]
    fn the_root_manifest_lists_every_package() {
        let packages = workspace().unwrap();
        let text = std::fs::read_to_string(crate::cmd::root().join("Cargo.toml")).unwrap();
        let names: Vec<_> = packages
            .iter()
            .map(|p| p.dir.strip_prefix(crate::cmd::root()).unwrap().to_owned())
            .collect();
        let order: Vec<PathBuf> = member_order(&text).iter().map(PathBuf::from).collect();
        assert_eq!(names, order);
        assert!(packages.iter().any(|p| p.has("bin", "xtask")));
    }
}
