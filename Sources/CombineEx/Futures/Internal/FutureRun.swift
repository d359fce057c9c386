import CombineExCore

/// The state of one subscription to a composed ``DeferredFuture`` (a ``FutureChain``): which
/// stage runs, how to cancel its work, and whether the subscriber cancelled.
///
/// A chain of single-value operators runs as one subscription: each stage (the work of one
/// future in the chain: the first, then each one a `flatMap` or `catch` starts) begins,
/// reports its first result through its promise, and ends. This box, one per subscription and
/// shared by every stage, makes each stage's promise count once, keeps the running stage's
/// cancel, keeps a stage from starting or reporting after the subscriber cancelled, and lets
/// go of the running stage's continuation on a cancel, even while its work keeps the promise.
@usableFromInline
final class FutureRun: @unchecked Sendable {
  // @unchecked Sendable: every mutable property is guarded by `lock`; the cancel closure and
  // the stage are called and released outside it.
  private let lock = Lock()
  /// The number of the running (or next) stage.
  private var number = 0
  /// The running stage, from its beginning to its end.
  private var running: FutureStageBase?
  /// Whether the subscriber cancelled: no stage begins or ends after that.
  private var cancelled = false
  /// Cancels the running stage's work, while it runs.
  private var cancelWork: (@Sendable () -> Void)?

  @usableFromInline
  init() {}

  /// Begins `stage`: returns its number, or `nil` if the subscriber cancelled (then the
  /// stage's work must not start).
  @usableFromInline
  func begin(_ stage: FutureStageBase) -> Int? {
    lock.withLock { () -> Int? in
      guard !cancelled, running == nil else { return nil }
      running = stage
      return number
    }
  }

  /// Keeps how to cancel the work of stage `number` while it runs. Cancels it at once if the
  /// subscriber cancelled meanwhile; forgets it if the stage already ended.
  @usableFromInline
  func keep(_ cancelWork: @escaping @Sendable () -> Void, for number: Int) {
    let cancelNow = lock.withLock { () -> Bool in
      if cancelled { return true }
      if running != nil, self.number == number { self.cancelWork = cancelWork }
      return false
    }
    if cancelNow { cancelWork() }
  }

  /// Ends stage `number` with its result: `true` for the first call of its promise, made
  /// before the subscriber cancelled (the caller then passes the result on); `false` for any
  /// other call, which is ignored.
  @usableFromInline
  func end(_ number: Int) -> Bool {
    let ended = lock.withLock { () -> (FutureStageBase, (@Sendable () -> Void)?)? in
      guard !cancelled, let stage = running, self.number == number else { return nil }
      self.number += 1
      running = nil
      defer { cancelWork = nil }
      return (stage, cancelWork)
    }
    // The ended stage's cancel (and what it holds) is released here, outside the lock.
    return ended != nil
  }

  /// The subscriber cancelled: cancels the running stage's work, lets go of its continuation,
  /// and keeps any later stage from starting or reporting.
  @usableFromInline
  func cancel() {
    let ending = lock.withLock { () -> (FutureStageBase?, (@Sendable () -> Void)?)? in
      guard !cancelled else { return nil }
      cancelled = true
      defer {
        running = nil
        cancelWork = nil
      }
      return (running, cancelWork)
    }
    guard let (stage, cancelWork) = ending else { return }
    cancelWork?()
    stage?.release()
  }
}

/// A stage of a composed future's subscription, as its ``FutureRun`` sees it: something to let
/// go of on a cancel.
@usableFromInline
class FutureStageBase: @unchecked Sendable {
  // @unchecked Sendable: it has no state; subclasses say why theirs is sound.

  @usableFromInline
  init() {}

  /// Lets go of the stage's continuation (the rest of the chain); called once, on a cancel.
  @usableFromInline
  func release() {}
}

/// One stage of a composed future's subscription: the promise its work reports to, which
/// passes the first result on to the rest of the chain.
@usableFromInline
final class FutureStage<Output, Failure: Error>: FutureStageBase, @unchecked Sendable {
  // @unchecked Sendable: `continuation` is read or cleared only by the thread that ended the
  // stage (`run.end` returned `true`) or cancelled the run while the stage ran, never both:
  // the run's lock orders them. `number` is set before the work starts.
  @usableFromInline
  let run: FutureRun
  @usableFromInline
  var number = 0
  /// The rest of the chain, until the stage ends or the run is cancelled.
  @usableFromInline
  var continuation: FutureChain<Output, Failure>.Continuation?

  @inlinable
  init(run: FutureRun, continuation: @escaping FutureChain<Output, Failure>.Continuation) {
    self.run = run
    self.continuation = continuation
  }

  /// Begins the stage in its run: `false` if the subscriber cancelled (then do not start).
  @inlinable
  func begin() -> Bool {
    guard let number = run.begin(self) else { return false }
    self.number = number
    return true
  }

  /// Keeps how to cancel the stage's work while it runs.
  @inlinable
  func keep(_ cancelWork: @escaping @Sendable () -> Void) {
    run.keep(cancelWork, for: number)
  }

  /// The stage's promise: the first result before a cancel goes on to the rest of the chain.
  @inlinable
  func report(_ result: Result<Output, Failure>) {
    guard run.end(number), let continuation else { return }
    self.continuation = nil
    continuation(result)
  }

  @usableFromInline
  override func release() {
    continuation = nil
  }
}
