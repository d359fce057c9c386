import CombineEx

/// The publisher middleware's record of the pipelines it retains, one entry per dispatch of a
/// ``RetainedPublisherAction``.
///
/// An entry counts the `cleanup()` calls made for its dispatch. While the body runs, the entry
/// is *open* (the number of stored pipelines is not known yet); when the body returns, the entry
/// learns how many cancellables were stored. If the cleanups already reach that number
/// (nothing stored, or every pipeline ended synchronously), nothing is retained; otherwise the
/// cancellables are kept until the cleanups reach it. Cleanups for an entry that no longer
/// exists are ignored, and ids are never reused, so a late or extra `cleanup()` can never touch
/// another dispatch. A retained entry is reported to the ``EffectTracking`` observer bound where
/// its action was processed, from its retention until its release.
final class RetentionBook: @unchecked Sendable {
  // @unchecked Sendable: every stored property is guarded by `lock`; cancellables are released
  // (and so cancelled) outside it.

  private struct Entry {
    /// The store attachment the dispatch came through.
    let attachment: UInt64
    /// What the dispatch's pipelines dispatch and clean up through; offered as the spare when
    /// the entry is released.
    let pipelines: RetainedPipelines
    /// `cleanup()` calls so far.
    var cleanups = 0
    /// The number of stored cancellables, once the body has returned.
    var stored: Int?
    var cancellables: Set<AnyCancellable> = []
    /// The retention as reported to an ``EffectTracking`` observer, if any.
    var tracked: TrackedEffect?
  }

  private let lock = Lock()
  private var entries: [UInt64: Entry] = [:]
  private var nextID: UInt64 = 0
  private var retained = 0
  /// An empty set that keeps the storage of a released dispatch's cancellables, handed to the
  /// next body to store into: a body storing a pipeline or two then allocates nothing.
  private var spare: Set<AnyCancellable> = []
  /// The ``RetainedPipelines`` of a released dispatch, reused by the next dispatch if nothing
  /// else references it by then (its pipelines have been freed): a round trip then allocates
  /// no object of its own here.
  private var sparePipelines: RetainedPipelines?

  /// The largest set kept as the spare: a body that stored many pipelines does not leave its
  /// storage behind for good.
  private static var spareCapacityLimit: Int { 16 }

  /// Dispatches whose pipelines are currently retained.
  var retainedDispatchCount: Int {
    lock.withLock { retained }
  }

  func makeID() -> UInt64 {
    lock.withLock {
      nextID += 1
      return nextID
    }
  }

  /// Opens an entry for a dispatch that is about to run its body; returns what its pipelines
  /// dispatch and clean up through, which knows the entry's id. `cancellables` (empty) receives
  /// the spare's storage, if there is one, for the body to store into.
  func open(
    attachment: UInt64, dispatch: @escaping Dispatch, source: ActionSource,
    lending cancellables: inout Set<AnyCancellable>
  ) -> RetainedPipelines {
    lock.withLock {
      nextID += 1
      let pipelines: RetainedPipelines
      // Unique: no pipeline, closure or thread references the spare any more, and only this
      // book hands it out, so nobody can read it while it changes.
      if isKnownUniquelyReferenced(&sparePipelines), let spare = sparePipelines {
        spare.reuse(entry: nextID, dispatch: dispatch, source: source)
        pipelines = spare
      } else {
        pipelines = RetainedPipelines(book: self, entry: nextID, dispatch: dispatch, source: source)
      }
      // Taken, or dropped if something still references it (a closure kept beyond its
      // pipeline): the next released dispatch offers another.
      sparePipelines = nil
      entries[nextID] = Entry(attachment: attachment, pipelines: pipelines)
      swap(&cancellables, &spare)
      return pipelines
    }
  }

  /// Keeps the pipelines of a released entry for the next dispatch, if no spare is kept yet.
  /// Under `lock`.
  private func offerSpare(_ pipelines: RetainedPipelines) {
    if sparePipelines == nil { sparePipelines = pipelines }
  }

  /// Releases what `cancellables` holds (and so cancels it), outside the lock, then keeps the
  /// emptied storage as the spare if there is none. The set is uniquely referenced here (taken
  /// out of its entry or its body), so emptying it keeps its storage.
  private func recycle(_ cancellables: inout Set<AnyCancellable>) {
    guard cancellables.capacity <= Self.spareCapacityLimit else {
      cancellables = []
      return
    }
    cancellables.removeAll(keepingCapacity: true)
    lock.withLock {
      if spare.capacity == 0 { swap(&spare, &cancellables) }
    }
  }

  /// Records the cancellables the body stored, and keeps them unless their cleanups are all in.
  /// `tracked` reports the retention to an ``EffectTracking`` observer; it ends at once if
  /// nothing is retained.
  func close(
    _ id: UInt64, storing cancellables: inout Set<AnyCancellable>, tracked: TrackedEffect?
  ) {
    let released = lock.withLock { () -> Bool in
      guard var entry = entries.removeValue(forKey: id) else { return true }
      if entry.cleanups >= cancellables.count {
        offerSpare(entry.pipelines)
        return true
      }
      entry.stored = cancellables.count
      swap(&entry.cancellables, &cancellables)
      entry.tracked = tracked
      entries[id] = entry
      retained += 1
      return false
    }
    guard released else { return }
    recycle(&cancellables)  // released (and so cancelled) outside the lock
    tracked?.end()
  }

  /// Counts one `cleanup()` for the dispatch `id`, and releases its pipelines once every stored
  /// pipeline has been cleaned up.
  func cleanup(_ id: UInt64) {
    // Moved out of the entry under the lock, so that the set is uniquely referenced when
    // `recycle` empties it (a copy would make emptying it allocate a new storage).
    var cancellables: Set<AnyCancellable> = []
    let released = lock.withLock { () -> TrackedEffect?? in
      guard var entry = entries.removeValue(forKey: id) else { return nil }
      entry.cleanups += 1
      guard let stored = entry.stored, entry.cleanups >= stored else {
        entries[id] = entry
        return nil
      }
      retained -= 1
      swap(&cancellables, &entry.cancellables)
      offerSpare(entry.pipelines)
      return .some(entry.tracked)
    }
    guard let tracked = released else { return }
    recycle(&cancellables)
    tracked?.end()
  }

  /// Cancels and releases everything retained for a store that is gone.
  func releaseAll(attachment: UInt64) {
    let (released, droppedSpare) = lock.withLock { () -> ([Entry], RetainedPipelines?) in
      var released: [Entry] = []
      for (id, entry) in entries where entry.attachment == attachment {
        entries[id] = nil
        if entry.stored != nil { retained -= 1 }
        released.append(entry)
      }
      // The spare may hold this store's `dispatch`: dropped with the store (released outside
      // the lock).
      defer { self.sparePipelines = nil }
      return (released, sparePipelines)
    }
    _ = droppedSpare  // released here, outside the lock
    for entry in released {
      for cancellable in entry.cancellables {
        cancellable.cancel()
      }
      entry.tracked?.end()
    }
  }

  /// One store's use of the middleware. The store's middleware chain owns it; when the store is
  /// freed, the chain releases it, and it cancels what the store's dispatches still retain.
  final class Attachment: Sendable {
    let book: RetentionBook
    let id: UInt64

    init(book: RetentionBook) {
      self.book = book
      id = book.makeID()
    }

    deinit {
      book.releaseAll(attachment: id)
    }

    /// Runs a retained publisher action's body and retains what it stored.
    func run<State>(
      _ action: RetainedPublisherAction<State>, dispatch: @escaping Dispatch,
      getState: @escaping @Sendable () -> State?
    ) {
      var cancellables: Set<AnyCancellable> = []
      let source = action.source
      // One object behind both closures, each of which then captures only it; reused from an
      // earlier dispatch when its pipelines are gone.
      let pipelines = book.open(
        attachment: id, dispatch: dispatch, source: source, lending: &cancellables)
      let entry = pipelines.entry
      action.body(
        { pipelines.dispatch($0) }, getState, &cancellables, { pipelines.cleanup() })
      let tracked =
        cancellables.isEmpty
        ? nil
        : EffectTracking.start(
          "the pipelines of the RetainedPublisherAction created at \(source.file):\(source.line)")
      book.close(entry, storing: &cancellables, tracked: tracked)
    }
  }
}

/// What the pipelines of one retained publisher action dispatch through, and how they report
/// a cleanup to the book (held weakly, as the book holds the pipelines).
///
/// The book reuses the object of a released dispatch for a later one
/// (``reuse(entry:dispatch:source:)``), only while it holds the one reference to it.
final class RetainedPipelines: @unchecked Sendable {
  // @unchecked Sendable: `entry`, `send` and `source` change only in `reuse`, which the book
  // calls under its lock while it holds the only reference to this object (no pipeline or
  // closure can read them then); the closures that read them are handed out after it.
  private weak let book: RetentionBook?
  private(set) var entry: UInt64
  private var send: Dispatch
  private var source: ActionSource

  init(book: RetentionBook, entry: UInt64, dispatch: @escaping Dispatch, source: ActionSource) {
    self.book = book
    self.entry = entry
    send = dispatch
    self.source = source
  }

  /// Makes this object serve the dispatch `entry`. Only while nothing else references it.
  func reuse(entry: UInt64, dispatch: @escaping Dispatch, source: ActionSource) {
    self.entry = entry
    send = dispatch
    self.source = source
  }

  /// Dispatches `action` with the source of the retained publisher action.
  func dispatch(_ action: any StoreAction) {
    HandedSource.dispatch(action, source: source, through: send)
  }

  /// Reports the end of one pipeline.
  func cleanup() {
    book?.cleanup(entry)
  }
}
