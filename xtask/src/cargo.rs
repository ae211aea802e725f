//! What the workspace holds, asked of cargo itself: its packages and their
//! targets (`cargo metadata`), and the test executables a build produced
//! (`--message-format=json`).

use crate::cmd::{Cmd, Result};
use crate::json::Json;
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

    /// The names of its integration tests that start with `loom_`.
    pub fn loom_tests(&self) -> Vec<String> {
        self.targets
            .iter()
            .filter(|t| t.name.starts_with("loom_") && t.kinds.iter().any(|k| k == "test"))
            .map(|t| t.name.clone())
            .collect()
    }
}

/// The workspace members, as `cargo metadata --no-deps` lists them.
pub fn workspace() -> Result<Vec<Package>> {
    let text = Cmd::cargo(&["metadata", "--format-version", "1", "--no-deps"]).read()?;
    let meta = Json::parse(&text)?;
    let mut packages = Vec::new();
    for p in meta.get("packages").items() {
        let manifest = PathBuf::from(p.get("manifest_path").as_str().unwrap_or_default());
        packages.push(Package {
            id: p.get("id").as_str().unwrap_or_default().to_string(),
            name: p.get("name").as_str().unwrap_or_default().to_string(),
            dir: manifest.parent().map(PathBuf::from).unwrap_or_default(),
            targets: p
                .get("targets")
                .items()
                .iter()
                .map(|t| Target {
                    name: t.get("name").as_str().unwrap_or_default().to_string(),
                    kinds: t
                        .get("kind")
                        .items()
                        .iter()
                        .filter_map(|k| k.as_str().map(String::from))
                        .collect(),
                })
                .collect(),
        });
    }
    // Teaching order: as the root Cargo.toml lists the members.
    let order = member_order();
    packages.sort_by_key(|p| {
        let dir = p.dir.strip_prefix(crate::cmd::root()).unwrap_or(&p.dir);
        order
            .iter()
            .position(|m| Path::new(m) == dir)
            .unwrap_or(usize::MAX)
    });
    Ok(packages)
}

/// The `members = [...]` of the root Cargo.toml, in the order written.
fn member_order() -> Vec<String> {
    let text = std::fs::read_to_string(crate::cmd::root().join("Cargo.toml")).unwrap_or_default();
    let Some(start) = text.find("members") else {
        return Vec::new();
    };
    let list = &text[start..];
    let list = &list[..list.find(']').unwrap_or(list.len())];
    list.lines()
        .map(|l| l.split('#').next().unwrap_or_default())
        .flat_map(|l| l.split('"').skip(1).step_by(2))
        .map(String::from)
        .collect()
}

/// A test executable cargo built.
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
/// the test executables it produced, in build order.
pub fn test_executables(build: Cmd, packages: &[Package]) -> Result<Vec<TestExe>> {
    println!("$ {}", build.display());
    let text = build.read()?;
    let mut exes = Vec::new();
    for line in text.lines().filter(|l| l.starts_with('{')) {
        let msg = Json::parse(line)?;
        if msg.get("reason").as_str() != Some("compiler-artifact")
            || msg.get("profile").get("test") != &Json::Bool(true)
        {
            continue;
        }
        let Some(path) = msg.get("executable").as_str() else {
            continue;
        };
        let id = msg.get("package_id").as_str().unwrap_or_default();
        let Some(package) = packages.iter().find(|p| p.id == id) else {
            continue;
        };
        let target = msg.get("target");
        exes.push(TestExe {
            package: package.name.clone(),
            package_dir: package.dir.clone(),
            target: target.get("name").as_str().unwrap_or_default().to_string(),
            kind: target
                .get("kind")
                .items()
                .first()
                .and_then(Json::as_str)
                .unwrap_or_default()
                .to_string(),
            path: PathBuf::from(path),
        });
    }
    Ok(exes)
}

/// The ignored tests of a test executable (`--ignored --list --format terse`).
pub fn ignored_tests(exe: &TestExe) -> Result<Vec<String>> {
    let text = exe
        .cmd(&["--ignored", "--list", "--format", "terse"])
        .read()?;
    Ok(text
        .lines()
        .filter_map(|l| l.strip_suffix(": test"))
        .map(String::from)
        .collect())
}
