import CombineExCore
import Foundation
import Synchronization

/// An action waiting to be processed, with the place it was dispatched from.
struct QueuedAction {
  let action: any StoreAction
  let source: ActionSource
}

/// The serial, first-in first-out processing of one store's actions.
///
/// ## Who processes, and when a dispatch returns
/// At most one thread processes at a time: the *owner*. A dispatch takes one of three paths:
/// - **Nobody is processing** (the common case): the calling thread becomes the owner,
///   processes its action, then every follow-up action dispatched meanwhile, and gives
///   ownership up. The dispatch returns once its action, and everything it caused
///   synchronously, has been processed.
/// - **The calling thread is the owner** (a re-entrant dispatch from a middleware, a reducer's
///   caller, a state subscriber or a synchronous effect): the action is appended to the
///   follow-ups and the dispatch returns at once. The owner processes it right after the
///   current action (follow-ups in the order they were dispatched), never interleaved with it.
/// - **Another thread is processing**: the calling thread takes a ticket and blocks until every
///   earlier ticket has been served and the owner has given ownership up; then it becomes the
///   owner and proceeds as in the first case, on its own thread. So calls from other threads
///   wait their turn (first-in first-out), each action is processed on the thread that
///   dispatched it, and the dispatch still returns only once its action has been processed.
///
/// Blocking was chosen over handing the action to the owner (as the core's subjects do) for
/// two reasons: a dispatch that returns has had its effect on the state (callers can read
/// `state` right after), and an action is processed on its caller's thread (an action
/// dispatched on the main thread updates state subscribers on the main thread). The price is
/// the one every lock pays: code running *inside* processing must not wait synchronously for
/// another thread that dispatches to the same store (for example `DispatchQueue.sync` onto a
/// queue whose work dispatches), because that thread waits for the processing to end.
///
/// No lock is held while an action is processed: the condition's lock only guards the tickets
/// and the owner word for a few instructions.
final class ActionProcessor: @unchecked Sendable {
  // @unchecked Sendable: `nextTicket` and `servingTicket` are guarded by `condition`'s lock;
  // `owner` is atomic; `followUps` is touched only by the owner thread, and
  // ownership moves between threads under `condition`'s lock, which orders those accesses.

  private let condition = NSCondition()

  /// The identity of the thread processing, or 0 when nobody is. Set and cleared under
  /// `condition`'s lock; read without it only to ask "is it me?", which only the owner itself
  /// can make true.
  private let owner = Atomic<UInt>(0)

  /// The next ticket handed to a thread that must wait. Guarded by `condition`'s lock.
  private var nextTicket: UInt64 = 0

  /// The ticket whose turn is next. Guarded by `condition`'s lock.
  private var servingTicket: UInt64 = 0

  /// Actions dispatched by the owner while it processes, oldest first. Owner only. An action
  /// leaves it (and is released once processed) as it is taken, so a long chain of follow-ups
  /// keeps none of the actions already processed.
  private var followUps = ValueQueue<QueuedAction>()

  /// Processes `item` (with `process`) and every follow-up dispatched meanwhile, or queues it
  /// behind the current action when called re-entrantly by the processing thread. See the type's
  /// documentation for the exact rules.
  func submit(_ item: QueuedAction, process: (QueuedAction) -> Void) {
    let me = currentThreadIdentity()
    if owner.load(ordering: .relaxed) == me {
      followUps.append(item)
      return
    }
    acquire(me)
    process(item)
    while let next = followUps.popFirst() {
      process(next)
    }
    release()
  }

  /// Whether the calling thread is processing this store's actions.
  var isProcessingOnCurrentThread: Bool {
    owner.load(ordering: .relaxed) == currentThreadIdentity()
  }

  /// Waits for this thread's turn, then makes it the owner.
  private func acquire(_ me: UInt) {
    condition.lock()
    let ticket = nextTicket
    nextTicket &+= 1
    while owner.load(ordering: .relaxed) != 0 || servingTicket != ticket {
      condition.wait()
    }
    servingTicket &+= 1
    owner.store(me, ordering: .relaxed)
    condition.unlock()
  }

  /// Gives ownership up and wakes the threads waiting, if any.
  private func release() {
    condition.lock()
    owner.store(0, ordering: .relaxed)
    let someoneWaits = servingTicket != nextTicket
    if someoneWaits { condition.broadcast() }
    condition.unlock()
  }
}
