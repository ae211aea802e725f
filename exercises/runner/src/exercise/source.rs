//! What the exercises' checks read in a student's file, read as Rust with
//! `syn`, not as text: a comment or a string that names a thing never
//! counts as doing it.

use syn::visit::Visit;

/// One function of a file, read as Rust: free functions, methods and
/// functions nested in others or in inline modules.
pub struct Function {
    /// Its name.
    pub name: String,
    /// Whether it is `#[test]`.
    pub test: bool,
    /// Whether it is `#[ignore]`d.
    pub ignored: bool,
    /// Its body's tokens: no comment in them, and a string or a character
    /// literal one token.
    pub body: proc_macro2::TokenStream,
}

/// Every function of a file with a body, in the file's order (the one
/// reader of a file's functions: the exercises' checks and the book's
/// catalogue both use it).
pub fn functions(file: &syn::File) -> Vec<Function> {
    #[derive(Default)]
    struct Functions(Vec<Function>);
    impl Functions {
        fn push(&mut self, attrs: &[syn::Attribute], name: &syn::Ident, body: &syn::Block) {
            self.0.push(Function {
                name: name.to_string(),
                test: has_attr(attrs, "test"),
                ignored: has_attr(attrs, "ignore"),
                body: quote::ToTokens::to_token_stream(body),
            });
        }
    }
    impl<'ast> Visit<'ast> for Functions {
        fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
            self.push(&f.attrs, &f.sig.ident, &f.block);
            syn::visit::visit_item_fn(self, f);
        }
        fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
            self.push(&f.attrs, &f.sig.ident, &f.block);
            syn::visit::visit_impl_item_fn(self, f);
        }
    }
    let mut found = Functions::default();
    found.visit_file(file);
    found.0
}

/// The test functions of a file: `#[test]` functions, wherever they sit,
/// and whether each is `#[ignore]`d.
pub fn tests(file: &syn::File) -> Vec<(String, bool)> {
    functions(file)
        .into_iter()
        .filter(|f| f.test)
        .map(|f| (f.name, f.ignored))
        .collect()
}

/// Whether `attrs` hold `#[name]` or `#[name(...)]`/`#[name = ...]`.
fn has_attr(attrs: &[syn::Attribute], name: &str) -> bool {
    attrs.iter().any(|a| a.path().is_ident(name))
}

/// Why a check found no test to run in `text` (shown as `shown`): it does
/// not parse, its only tests are `#[ignore]`d, or it has none.
pub fn no_test_why(text: &str, shown: &str) -> String {
    let file = match syn::parse_file(text) {
        Ok(file) => file,
        Err(e) => {
            let at = e.span().start();
            return format!(
                "{shown} does not parse as Rust ({}:{}: {e})",
                at.line,
                at.column + 1
            );
        }
    };
    let found = tests(&file);
    let ignored: Vec<&str> = found
        .iter()
        .filter(|(_, ignored)| *ignored)
        .map(|(name, _)| name.as_str())
        .collect();
    if found.is_empty() {
        format!("{shown} has no `#[test]` function yet")
    } else if ignored.len() == found.len() {
        format!(
            "{shown}: your test {} is `#[ignore]`d, and the check runs only the tests that run \
             by default: take the `#[ignore]` away",
            ignored.join(", ")
        )
    } else {
        format!("{shown}: the check found no test of its module to run")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ignored_test_is_named_as_ignored_not_as_missing() {
        let ignored = "#[test]\n#[ignore = \"later\"]\nfn caught() {}\n";
        assert!(no_test_why(ignored, "mine.rs").contains("`#[ignore]`d"));
        let none = "// #[test] is in a comment only\nfn helper() {}\n";
        assert!(no_test_why(none, "mine.rs").contains("no `#[test]` function yet"));
        let broken = "fn x( {";
        assert!(no_test_why(broken, "mine.rs").contains("does not parse"));
    }

    #[test]
    fn statements_are_tokens_without_comments_or_strings() {
        let text = "fn take() {\n    // let _ = token.block_on(w)?;\n    let _ = token.block_on(\n        w, // here\n    )?;\n    let s = \"kit::pause::Pause\";\n}\n";
        let found = statements(text).unwrap();
        assert!(
            found.contains(&"let_=token.block_on(w,)?;".to_string()),
            "{found:?}"
        );
        assert!(!found.iter().any(|s| s.contains("kit::pause")), "{found:?}");
        assert!(statements("fn x( {").is_none());
    }

    #[test]
    fn tests_are_found_inside_modules_and_attributes_not_comments() {
        let text = "mod inner {\n    #[test]\n    fn a() {}\n}\n/* #[test] fn b() {} */\n\
                    fn c() { let s = \"#[test]\"; }\n";
        let file = syn::parse_file(text).unwrap();
        assert_eq!(tests(&file), [("a".to_string(), false)]);
    }
}

/// Every statement of a file (nested ones too, and each item's signature
/// line with its body), as its tokens with no spaces between them and the
/// text of every string literal taken out: `let _ = token.block_on(w)?;`
/// reads `let_=token.block_on(w)?;`. `None` if the file does not parse.
pub fn statements(text: &str) -> Option<Vec<String>> {
    #[derive(Default)]
    struct Statements(Vec<String>);
    impl<'ast> Visit<'ast> for Statements {
        fn visit_stmt(&mut self, s: &'ast syn::Stmt) {
            let mut flat = String::new();
            flatten(quote_tokens(s), &mut flat);
            self.0.push(flat);
            syn::visit::visit_stmt(self, s);
        }
        fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
            let mut flat = String::new();
            flatten(quote::ToTokens::to_token_stream(u), &mut flat);
            self.0.push(flat);
        }
    }
    let file = syn::parse_file(text).ok()?;
    let mut found = Statements::default();
    found.visit_file(&file);
    Some(found.0)
}

/// A statement's tokens.
fn quote_tokens(s: &syn::Stmt) -> proc_macro2::TokenStream {
    use quote::ToTokens;
    s.to_token_stream()
}

/// `tokens` written out with no spaces, string literals emptied.
fn flatten(tokens: proc_macro2::TokenStream, out: &mut String) {
    use proc_macro2::{Delimiter, TokenTree};
    for t in tokens {
        match t {
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Brace => ("{", "}"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::None => ("", ""),
                };
                out.push_str(open);
                flatten(g.stream(), out);
                out.push_str(close);
            }
            TokenTree::Literal(l) => {
                let text = l.to_string();
                if text.ends_with('"') {
                    out.push_str("\"\"");
                } else {
                    out.push_str(&text);
                }
            }
            other => out.push_str(&other.to_string()),
        }
    }
}

/// What a loom model's file does, as the model-it grader needs to know it
/// before running it. Read from the syntax tree: a name in a comment or a
/// string is not a use of it, and an import under another name
/// (`use std::env as e`, `use loom::{stop_exploring as stop}`) still is.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct ModelFacts {
    /// A `#[test] fn model`.
    pub model_fn: bool,
    /// A call of `loom::model` (however imported).
    pub loom_model: bool,
    /// The environment is read: `std::env` in any form, `env!`,
    /// `option_env!`.
    pub reads_env: bool,
    /// loom's settings are touched: `loom::model::Builder`, or a setting's
    /// name (`preemption_bound`, `max_branches`, ...).
    pub own_settings: bool,
    /// Executions are cut short: `loom::stop_exploring`, `loom::skip_branch`.
    pub skips: bool,
    /// Something can fail: an assertion, a panic, a wait that may never
    /// end.
    pub checks: bool,
}

/// loom's settings, as `Builder`'s fields and methods name them.
const LOOM_SETTINGS: &[&str] = &[
    "preemption_bound",
    "max_branches",
    "max_permutations",
    "max_duration",
    "checkpoint_file",
    "checkpoint_interval",
    "location",
    "log",
];

/// Macros that make a model fail.
const FAILING_MACROS: &[&str] = &[
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
    "panic",
    "unreachable",
    "todo",
    "unimplemented",
];

/// Reads `text` as a loom model; `Err` says where it does not parse.
pub fn model_facts(text: &str) -> Result<ModelFacts, String> {
    let file = syn::parse_file(text).map_err(|e| {
        let at = e.span().start();
        format!(
            "it does not parse as Rust ({}:{}: {e})",
            at.line,
            at.column + 1
        )
    })?;
    let mut v = ModelVisitor::default();
    // First the imports: which names stand for std, std::env and loom.
    for item in &file.items {
        if let syn::Item::Use(u) = item {
            v.imports(&u.tree, &mut Vec::new());
        }
    }
    v.visit_file(&file);
    Ok(v.facts)
}

#[derive(Default)]
struct ModelVisitor {
    facts: ModelFacts,
    /// Local names that stand for `std`/`core`, `std::env`, `loom`,
    /// `loom::model`, and loom's cutting functions.
    std: Vec<String>,
    env: Vec<String>,
    loom: Vec<String>,
    model: Vec<String>,
    cut: Vec<String>,
    glob_std: bool,
}

impl ModelVisitor {
    /// Walks one `use` tree, `prefix` the path so far.
    fn imports(&mut self, tree: &syn::UseTree, prefix: &mut Vec<String>) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.imports(&p.tree, prefix);
                prefix.pop();
            }
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.imports(t, prefix);
                }
            }
            syn::UseTree::Name(n) => self.imported(prefix, &n.ident.to_string(), None),
            syn::UseTree::Rename(r) => {
                self.imported(prefix, &r.ident.to_string(), Some(r.rename.to_string()));
            }
            syn::UseTree::Glob(_) => {
                let full: Vec<&str> = prefix.iter().map(String::as_str).collect();
                if matches!(full.as_slice(), ["std" | "core"]) {
                    self.glob_std = true;
                }
                if matches!(full.as_slice(), ["std" | "core", "env"]) {
                    self.facts.reads_env = true;
                }
                if full == ["loom"] {
                    self.model.push("model".into());
                    self.cut
                        .extend(["stop_exploring".into(), "skip_branch".into()]);
                }
            }
        }
    }

    /// `use <prefix>::<name> [as <rename>]`.
    fn imported(&mut self, prefix: &[String], name: &str, rename: Option<String>) {
        let local = rename.unwrap_or_else(|| name.to_string());
        let mut full: Vec<&str> = prefix.iter().map(String::as_str).collect();
        if name != "self" {
            full.push(name);
        }
        match full.as_slice() {
            ["std" | "core"] => self.std.push(local),
            ["std" | "core", "env", ..] => {
                self.facts.reads_env = true;
                self.env.push(local);
            }
            ["loom"] => self.loom.push(local),
            ["loom", "model"] => self.model.push(local),
            ["loom", "model", "Builder"] => self.facts.own_settings = true,
            ["loom", "stop_exploring" | "skip_branch"] => self.cut.push(local),
            _ => {}
        }
    }

    /// What one path in the code names.
    fn path(&mut self, path: &syn::Path) {
        let segs: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        let is = |names: &Vec<String>, s: &String| names.iter().any(|n| n == s);
        let Some(first) = segs.first() else { return };
        let std_like = first == "std" || first == "core" || is(&self.std, first);
        if (std_like && segs.get(1).is_some_and(|s| s == "env"))
            || is(&self.env, first)
            || (self.glob_std && first == "env" && segs.len() > 1)
        {
            self.facts.reads_env = true;
        }
        let loom_like = first == "loom" || is(&self.loom, first);
        let rest = if loom_like { &segs[1..] } else { &segs[..] };
        match rest {
            [m] if loom_like && m == "model" => self.facts.loom_model = true,
            [m] if is(&self.model, m) => self.facts.loom_model = true,
            [m, b, ..] if (loom_like && m == "model" || is(&self.model, m)) && b == "Builder" => {
                self.facts.own_settings = true;
            }
            [f] if loom_like && (f == "stop_exploring" || f == "skip_branch") => {
                self.facts.skips = true;
            }
            [f] if is(&self.cut, f) => self.facts.skips = true,
            _ => {}
        }
    }
}

impl<'ast> Visit<'ast> for ModelVisitor {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if f.sig.ident == "model" && has_attr(&f.attrs, "test") {
            self.facts.model_fn = true;
        }
        syn::visit::visit_item_fn(self, f);
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        self.path(p);
        syn::visit::visit_path(self, p);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        let name = m.path.segments.last().map(|s| s.ident.to_string());
        match name.as_deref() {
            Some("env" | "option_env") => self.facts.reads_env = true,
            Some(n) if FAILING_MACROS.contains(&n) => self.facts.checks = true,
            _ => {}
        }
        // A macro's arguments are tokens, not syntax: read them as
        // expressions where they are (assert!(x.wait()), format!(...)).
        if let Ok(args) = m.parse_body_with(
            syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated,
        ) {
            for e in &args {
                self.visit_expr(e);
            }
        }
        syn::visit::visit_macro(self, m);
    }

    fn visit_expr_method_call(&mut self, c: &'ast syn::ExprMethodCall) {
        let name = c.method.to_string();
        if LOOM_SETTINGS.contains(&name.as_str()) && name != "log" && name != "location" {
            self.facts.own_settings = true;
        }
        if name == "wait" {
            self.facts.checks = true;
        }
        syn::visit::visit_expr_method_call(self, c);
    }

    fn visit_expr_field(&mut self, f: &'ast syn::ExprField) {
        if let syn::Member::Named(name) = &f.member
            && LOOM_SETTINGS.contains(&name.to_string().as_str())
        {
            self.facts.own_settings = true;
        }
        syn::visit::visit_expr_field(self, f);
    }
}

#[cfg(test)]
mod model_tests {
    use super::*;

    const MODEL: &str = "#[test]\nfn model() {\n    loom::model(|| { assert!(true); });\n}\n";

    #[test]
    fn a_plain_model_is_a_model_that_checks() {
        let f = model_facts(MODEL).unwrap();
        assert!(f.model_fn && f.loom_model && f.checks);
        assert!(!f.reads_env && !f.own_settings && !f.skips);
    }

    #[test]
    fn the_environment_is_found_however_it_is_imported() {
        for text in [
            "use std::env as e;\nfn x() { let _ = e::var(\"A\"); }",
            "use std::{env};\nfn x() { env::var(\"A\").ok(); }",
            "use std as s;\nfn x() { s::env::var(\"A\").ok(); }",
            "use std::*;\nfn x() { env::var(\"A\").ok(); }",
            "use std::env::var;\nfn x() { var(\"A\").ok(); }",
            "fn x() { ::std::env::args(); }",
            "fn x() { let _ = option_env!(\"A\"); }",
        ] {
            assert!(model_facts(text).unwrap().reads_env, "{text}");
        }
        for text in [
            "// std::env::var is not read here\nfn x() {}",
            "fn x() { let _ = \"std::env::var\"; }",
            "fn outside() {}",
        ] {
            assert!(!model_facts(text).unwrap().reads_env, "{text}");
        }
    }

    #[test]
    fn cutting_executions_short_is_found_however_it_is_imported() {
        for text in [
            "fn x() { loom::stop_exploring(); }",
            "use loom::skip_branch;\nfn x() { skip_branch(); }",
            "use loom::{stop_exploring as stop};\nfn x() { if true { stop(); } }",
            "use loom as l;\nfn x() { l::stop_exploring(); }",
        ] {
            assert!(model_facts(text).unwrap().skips, "{text}");
        }
        assert!(
            !model_facts("// loom::stop_exploring()\nfn x() {}")
                .unwrap()
                .skips
        );
    }

    #[test]
    fn loom_settings_belong_to_the_grader() {
        for text in [
            "fn x() { let mut b = loom::model::Builder::new(); b.check(|| {}); }",
            "use loom::model::Builder;\nfn x() { Builder::new(); }",
            "fn x(b: &mut B) { b.preemption_bound = Some(9); }",
            "fn x(b: B) { b.max_branches(10); }",
        ] {
            assert!(model_facts(text).unwrap().own_settings, "{text}");
        }
        assert!(!model_facts(MODEL).unwrap().own_settings);
    }

    #[test]
    fn a_wait_inside_an_assertion_counts_and_a_word_in_a_comment_does_not() {
        let waits = "fn model() { loom::model(|| { h.join().unwrap(); c.wait(g); }); }";
        assert!(model_facts(waits).unwrap().checks);
        let words = "fn model() { loom::model(|| { /* assert! it */ let _ = \"panic!\"; }); }";
        assert!(!model_facts(words).unwrap().checks);
    }
}
