import Synchronization

// The *delivery token* of a subject (`SubjectCore.token`): an atomic word holding the identity
// of the one thread that may touch the subscriber list or call a subscriber. It is how every
// subject of the package keeps Combine's threading contract for subjects (ARCHITECTURE.md
// rules 5 and 6).
//
// Everything that touches the subscriber list or calls a subscriber (sending a value or a
// completion, attaching, detaching, replaying) runs as a `SubjectEvent` handled by the thread
// that holds the token:
// - Uncontended, `perform` takes the token with one compare-and-swap, handles the event, and
//   gives the token back with another. No lock is taken and nothing is allocated.
// - Re-entrant calls (the token holder's own thread, from inside a subscriber) are handled at
//   once, nested inside the current delivery: that is the order Apple's Combine gives. A
//   subject that does not nest deliveries (`MutableProperty`, `SubjectKind.property`) queues a
//   re-entrant value or completion instead; the holder delivers it after the current delivery,
//   before it gives the token back, so before the outer send returns.
// - **A value, a completion or an attach from another thread while the token is held waits**
//   until the holder gives the token back, then takes it and is handled on its own thread.
//   So a send returns only after every subscriber attached when it began (with demand) has
//   received it, on the sending thread, as in Combine. The waiting thread spins briefly, then
//   sleeps (`Parking`); it never spins for the length of a delivery.
// - **A cancel or a request from another thread never waits**: it is queued (under the core's
//   `lock`) and the holder handles it before giving the token back. (The cancelled subscriber
//   receives nothing more at once: its conduit is marked terminated before the event is
//   queued; a request's demand is added at once too, and only a replay it makes possible is
//   left to the holder.) A subscriber whose `receive` waits for another thread that cancels
//   it, or asks it for more, must not deadlock, and Combine's cancel does not wait either.
//
// Delivery to each subscriber is therefore serial. The cost is Combine's: a subscriber that
// synchronously waits for another thread that sends to the same subject deadlocks, and two
// threads delivering two subjects whose subscribers send to each other's subject deadlock, as
// two locks taken in opposite orders do. Waiting threads are not served first-come
// first-served (like a lock's, not a queue's).
//
// The word's two low bits are flags (thread identities are pointers, so they are otherwise
// zero): `queuedFlag` (events are queued for the holder) and `waitingFlag` (a thread may be
// asleep waiting for the token). Either makes the holder's release take the slow path, which
// drains the queue, then wakes the sleepers.
//
// The word is a stored property of the core, and this file the core's extension, rather than a
// type of its own: wrapped in a struct (tried when SubjectCore.swift was split), it made a
// `CurrentValueSubject` send run 6 more instructions (Benchmarks gate: k5 184 to 190, d 703 to
// 709 per send); the compiler kept the struct's address in a register across the send loop.

// MARK: Performing events

extension SubjectCore {
  /// Token flag: events are queued for the holder.
  @usableFromInline
  static var queuedFlag: UInt { 1 }

  /// Token flag: a thread may be asleep waiting for the token.
  @usableFromInline
  static var waitingFlag: UInt { 2 }

  /// Both token flags.
  @usableFromInline
  static var flags: UInt { 3 }

  /// What the caller of ``admit(_:me:)`` must do with its event.
  @usableFromInline
  enum Admission {
    /// The caller took the token: handle the event, then release the token.
    case handleAndRelease
    /// The caller already holds the token (a re-entrant call): handle the event, nested.
    case handleNested
    /// The caller must queue the event for the token holder (under `lock`; the queued flag is
    /// already set).
    case enqueue
    /// Another thread holds the token: wait until it is released, then try again.
    case wait
  }

  /// Handles `event` now if this thread holds or can take the token; otherwise waits for the
  /// token (values, completions, attaches) or queues the event for the holder (cancels and
  /// requests). See the rules above.
  @inlinable
  package func perform(_ event: SubjectEvent<Output, Failure>) {
    let me = currentThreadIdentity()
    Interleaving.point("token.take")
    if token.compareExchange(expected: 0, desired: me, ordering: .acquiring).exchanged {
      handle(event)
      releaseToken(me)
    } else if token.load(ordering: .relaxed) & ~Self.flags == me,
      kind.nestsReentrantDeliveries || !event.isDelivery
    {
      handle(event)  // Re-entrant: nested inside the event being handled.
    } else {
      performContended(event, me: me)
    }
  }

  /// Whether the calling thread holds the delivery token: it is handling an event of this
  /// subject (a subscriber of it is running on this thread, or is being attached).
  /// (`package`: a fused property `map` attaches a subscriber arriving from inside its source's
  /// delivery to its own core instead.)
  @inlinable
  package var isHeldByCurrentThread: Bool {
    token.load(ordering: .relaxed) & ~Self.flags == currentThreadIdentity()
  }

  /// Runs `body` holding the delivery token, as an event is handled: at once if this thread
  /// holds it (nested), otherwise once it is free (waiting for it, as a `send` does). For what
  /// only the token holder may read, when asked from outside (a subscription's mirror); the
  /// events queued meanwhile are handled when the token is given back.
  @usableFromInline
  func withDeliveryToken<Result>(_ body: () -> Result) -> Result {
    let me = currentThreadIdentity()
    while true {
      let word = token.load(ordering: .acquiring)
      if word & ~Self.flags == me { return body() }
      if word == 0 {
        guard token.compareExchange(expected: 0, desired: me, ordering: .acquiring).exchanged
        else { continue }
        let result = body()
        releaseToken(me)
        return result
      }
      waitForToken(me)
    }
  }

  /// `perform` when the token is held: by this thread (a re-entrant event this subject queues)
  /// or by another one.
  @inlinable
  func performContended(_ event: SubjectEvent<Output, Failure>, me: UInt) {
    while true {
      let admission = lock.withLock { () -> Admission in
        let admission = admit(event, me: me)
        if case .enqueue = admission { queue.append { [self] in handle(event) } }
        return admission
      }
      if case .wait = admission {
        waitForToken(me)
        continue
      }
      carryOut(admission, event, me: me)
      return
    }
  }

  /// Performs a value or completion for a replaying subject: `commit` (which stores the new
  /// value, or refuses it by returning `false`) runs under `lock`, atomically with taking the
  /// token (or queueing the event), so that the stored value and the order of deliveries always
  /// agree, whatever the threads. A caller that must wait for the token commits only once it
  /// has it. `commit` receives the calling thread's identity (`MutableProperty.modify` uses it).
  @inlinable
  package func perform(
    _ event: SubjectEvent<Output, Failure>, committing commit: (_ thread: UInt) -> Bool
  ) {
    let me = currentThreadIdentity()
    while true {
      let admission = lock.withLock { () -> Admission? in
        let admission = admit(event, me: me)
        switch admission {
        case .wait:
          return .wait
        case .handleAndRelease:
          if commit(me) { return .handleAndRelease }
          // Refused: give the token back (after the lock; events may have been queued).
          return nil
        case .handleNested:
          // Refused: nothing to do (`.enqueue` with nothing queued).
          return commit(me) ? .handleNested : .enqueue
        case .enqueue:
          guard commit(me) else { return .enqueue }  // Refused: nothing queued.
          queue.append { [self] in handle(event) }
          return .enqueue
        }
      }
      switch admission {
      case .wait?:
        waitForToken(me)
        continue
      case nil:
        releaseToken(me)
      case let admission?:
        carryOut(admission, event, me: me)
      }
      return
    }
  }

  @inlinable
  func carryOut(_ admission: Admission, _ event: SubjectEvent<Output, Failure>, me: UInt) {
    switch admission {
    case .handleAndRelease:
      handle(event)
      releaseToken(me)
    case .handleNested:
      handle(event)
    case .enqueue, .wait:
      break
    }
  }

  /// Decides, with `lock` held, what the calling thread does with `event`: take the token, handle
  /// it nested, queue it (setting the queued flag), or wait.
  @inlinable
  func admit(_ event: SubjectEvent<Output, Failure>, me: UInt) -> Admission {
    while true {
      let word = token.load(ordering: .acquiring)
      if word == 0 {
        if token.compareExchange(expected: 0, desired: me, ordering: .acquiring).exchanged {
          return .handleAndRelease
        }
        continue
      }
      if word & ~Self.flags == me {
        if kind.nestsReentrantDeliveries || !event.isDelivery { return .handleNested }
      } else if event.waitsForToken {
        return .wait
      }
      if word & Self.queuedFlag == 0 {
        let flagged = token.compareExchange(
          expected: word, desired: word | Self.queuedFlag,
          ordering: .acquiringAndReleasing)
        guard flagged.exchanged else { continue }
      }
      return .enqueue
    }
  }

  /// Sleeps until the token is released (after a short spin), setting the waiting flag so that
  /// the holder's release wakes this thread.
  @usableFromInline
  func waitForToken(_ me: UInt) {
    for _ in 0..<100 where token.load(ordering: .relaxed) == 0 {
      return
    }
    Parking.park(on: parkingAddress) {
      while true {
        let word = token.load(ordering: .acquiring)
        if word == 0 { return false }
        if word & Self.waitingFlag != 0 { return true }
        if token.compareExchange(
          expected: word, desired: word | Self.waitingFlag, ordering: .acquiringAndReleasing
        ).exchanged {
          return true
        }
      }
    }
  }

  /// The address threads waiting for this subject's token park on.
  @usableFromInline
  var parkingAddress: UnsafeRawPointer {
    UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
  }

  /// Gives the token back: one compare-and-swap, unless a flag is set.
  @inlinable
  func releaseToken(_ me: UInt) {
    Interleaving.point("token.release")
    if !token.compareExchange(expected: me, desired: 0, ordering: .releasing).exchanged {
      releaseTokenContended(me)
    }
  }

  /// Gives the token back when a flag is set: first handles every queued event (still holding
  /// the token), then releases it and wakes the threads waiting for it.
  @usableFromInline
  func releaseTokenContended(_ me: UInt) {
    while true {
      let (batch, wakeWaiters) = lock.withLock { () -> ([() -> Void], Bool) in
        if !queue.isEmpty {
          // Clear the queued flag only: the waiting flag stays for the final release.
          token.bitwiseAnd(~Self.queuedFlag, ordering: .acquiringAndReleasing)
          defer { queue = [] }
          return (queue, false)
        }
        let released = token.exchange(0, ordering: .releasing)
        return ([], released & Self.waitingFlag != 0)
      }
      if batch.isEmpty {
        if wakeWaiters { Parking.unparkAll(on: parkingAddress) }
        return
      }
      for handleEvent in batch {
        Interleaving.point("token.handOver")  // An event another thread queued for the holder.
        handleEvent()
      }
    }
  }
}
