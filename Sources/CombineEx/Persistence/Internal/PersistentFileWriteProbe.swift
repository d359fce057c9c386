import CombineExCore

/// A step of an atomic file write (see ``AtomicFile``).
package enum PersistentFileWritePhase: Sendable, CaseIterable {
  /// The temporary file exists and is empty.
  case temporaryFileCreated
  /// Half of the data is in the temporary file.
  case temporaryFileHalfWritten
  /// All the data is in the temporary file, flushed to the disk.
  case temporaryFileFlushed
  /// The temporary file has replaced the destination.
  case renamed
}

/// Lets the package's tests run code at each step of a file write: the crash test stops the
/// process at a chosen step, to check that a write interrupted anywhere leaves a readable file.
/// (A kill at a random moment rarely lands inside the few microseconds a step takes; this
/// makes every step testable on every run.) Unset, it costs one lock per step of a write that
/// flushes to the disk.
package enum PersistentFileWriteProbe {
  private final class Storage: @unchecked Sendable {
    // @unchecked Sendable: `probe` is guarded by `lock`.
    let lock = Lock()
    var probe: (@Sendable (PersistentFileWritePhase) -> Void)?
  }

  private static let storage = Storage()

  /// Sets (or, with `nil`, removes) the code to run at each step of every write.
  package static func install(_ probe: (@Sendable (PersistentFileWritePhase) -> Void)?) {
    storage.lock.withLock { storage.probe = probe }
  }

  static func report(_ phase: PersistentFileWritePhase) {
    let probe = storage.lock.withLock { storage.probe }
    probe?(phase)
  }
}
