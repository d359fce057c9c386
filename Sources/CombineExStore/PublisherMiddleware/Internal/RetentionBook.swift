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
/// another dispatch.
final class RetentionBook: @unchecked Sendable {
  // @unchecked Sendable: every stored property is guarded by `lock`; cancellables are released
  // (and so cancelled) outside it.

  private struct Entry {
    /// The store attachment the dispatch came through.
    let attachment: UInt64
    /// `cleanup()` calls so far.
    var cleanups = 0
    /// The number of stored cancellables, once the body has returned.
    var stored: Int?
    var cancellables: Set<AnyCancellable> = []
  }

  private let lock = Lock()
  private var entries: [UInt64: Entry] = [:]
  private var nextID: UInt64 = 0
  private var retained = 0

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

  /// Opens an entry for a dispatch that is about to run its body.
  func open(attachment: UInt64) -> UInt64 {
    lock.withLock {
      nextID += 1
      entries[nextID] = Entry(attachment: attachment)
      return nextID
    }
  }

  /// Records the cancellables the body stored, and keeps them unless their cleanups are all in.
  func close(_ id: UInt64, storing cancellables: Set<AnyCancellable>) {
    let released = lock.withLock { () -> Set<AnyCancellable> in
      guard var entry = entries[id] else { return cancellables }
      if entry.cleanups >= cancellables.count {
        entries[id] = nil
        return cancellables
      }
      entry.stored = cancellables.count
      entry.cancellables = cancellables
      entries[id] = entry
      retained += 1
      return []
    }
    withExtendedLifetime(released) {}  // released (and so cancelled) here, outside the lock
  }

  /// Counts one `cleanup()` for the dispatch `id`, and releases its pipelines once every stored
  /// pipeline has been cleaned up.
  func cleanup(_ id: UInt64) {
    let released = lock.withLock { () -> Set<AnyCancellable> in
      guard var entry = entries[id] else { return [] }
      entry.cleanups += 1
      guard let stored = entry.stored, entry.cleanups >= stored else {
        entries[id] = entry
        return []
      }
      entries[id] = nil
      retained -= 1
      return entry.cancellables
    }
    withExtendedLifetime(released) {}
  }

  /// Cancels and releases everything retained for a store that is gone.
  func releaseAll(attachment: UInt64) {
    let released = lock.withLock { () -> [Set<AnyCancellable>] in
      var released: [Set<AnyCancellable>] = []
      for (id, entry) in entries where entry.attachment == attachment {
        entries[id] = nil
        if entry.stored != nil { retained -= 1 }
        released.append(entry.cancellables)
      }
      return released
    }
    for cancellable in released.joined() {
      cancellable.cancel()
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
      let entry = book.open(attachment: id)
      let source = action.source
      var cancellables = Set<AnyCancellable>()
      action.body(
        { dispatch(SourcedAction.wrap($0, source: source)) }, getState, &cancellables,
        { [weak book] in book?.cleanup(entry) })
      book.close(entry, storing: cancellables)
    }
  }
}
