//! A node whose claim is the exercise's own: the round of the chapter's
//! node (`durable-timer/src/node.rs`) around a claim written here. The
//! rest is the chapter's: the delivery, the action, the fenced completion.

use std::marker::PhantomData;

use durable_timer::complete::{complete, deliver};
use durable_timer::{Claim, Millis, Step, Store, StoreError};

use super::Action;

/// A claim of the exercise's own, and its pause point.
pub(super) trait Claimer {
    /// Its `kit::pause_point` between the look and the mark.
    const WINDOW: &'static str;
    /// Claims the next due job for `node` on a lease of `lease` ms; `None`
    /// if there is none (or another node got it first).
    fn claim(store: &mut dyn Store, node: &str, lease: Millis)
    -> Result<Option<Claim>, StoreError>;
}

/// A node that claims with `C`.
pub(super) struct Own<C> {
    name: String,
    thread: String,
    store: Box<dyn Store>,
    lease: Millis,
    action: Option<Action>,
    claimer: PhantomData<fn() -> C>,
}

impl<C: Claimer> Own<C> {
    /// A node named `name` on `store`, its thread named as the chapter's
    /// node names its own.
    pub(super) fn new(store: Box<dyn Store>, name: &str, lease: Millis) -> Self {
        let prefix: String = name.chars().take(8).collect();
        Own {
            name: name.to_owned(),
            thread: kit::threads::unique_name(&prefix),
            store,
            lease,
            action: None,
            claimer: PhantomData,
        }
    }

    pub(super) fn name(&self) -> &str {
        &self.name
    }

    pub(super) fn thread_name(&self) -> &str {
        &self.thread
    }

    pub(super) fn on_run(mut self, action: Action) -> Self {
        self.action = Some(action);
        self
    }

    /// One round: claim, deliver, run the action, complete (fenced).
    pub(super) fn step(&mut self) -> Result<Step, StoreError> {
        let store = self.store.as_mut();
        let Some(claim) = C::claim(store, &self.name, self.lease)? else {
            return Ok(Step::Idle);
        };
        deliver(store, &claim, &self.name)?;
        if let Some(action) = &self.action {
            action(&claim);
        }
        if complete(store, &claim, &self.name)? {
            Ok(Step::Fired(claim))
        } else {
            Ok(Step::Fenced(claim))
        }
    }
}
