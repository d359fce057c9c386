import CombineExCore

/// Whether a slot's stored value is unreadable, and whether a discard was asked for.
final class PersistentStoredValueStatus: @unchecked Sendable {
  // @unchecked Sendable: both stored properties are guarded by `lock`.
  private let lock = Lock()
  private var unreadable: Bool
  private var discardRequested = false

  init(unreadable: Bool) {
    self.unreadable = unreadable
  }

  /// Whether the stored value is unreadable (the writer reads and changes it, one value at a
  /// time).
  var isUnreadable: Bool {
    get { lock.withLock { unreadable } }
    set { lock.withLock { unreadable = newValue } }
  }

  /// Asks the writer to give up the stored value before its next write.
  func requestDiscard() {
    lock.withLock { discardRequested = true }
  }

  /// Whether a discard was asked for since the last call.
  func takeDiscardRequest() -> Bool {
    lock.withLock {
      defer { discardRequested = false }
      return discardRequested
    }
  }
}
