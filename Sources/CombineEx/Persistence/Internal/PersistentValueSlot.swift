import CombineExCore
import Foundation

/// The state behind every live ``PersistentProperty`` of one key (and one value type): the
/// value, the last error, and the subscription that writes each new value to the engine.
///
/// The value is a ``MutableProperty``, so a persistent property has exactly its threading
/// contract. The writer is the property's first subscriber: each value is delivered to it
/// first, one at a time, in the order the values were committed, and a set returns once the
/// subscribers attached when it began have received it (the property's contract, rule 5 of the
/// architecture). So a set returns after its value is stored, writes reach the engine in the
/// order of the values (never an older value after a newer one), and once concurrent sets have
/// returned the stored value is the property's.
///
/// ## A stored value that cannot be read
/// If the engine reports the stored value as unreadable (``PersistentPropertyUnreadableValueError``),
/// it is still there, and nothing may be written over it: the writer keeps each value in memory
/// only, and first reads the engine again; once the read succeeds (or finds nothing, or content
/// that does not decode, which the file engine sets aside), it writes as usual, starting with
/// that value. ``discardStoredValue()`` gives the stored value up. All of this happens in the
/// writer, which the property calls one value at a time, so no lock is held while the engine
/// runs.
final class PersistentValueSlot<Output: Codable> {
  let value: MutableProperty<Output>
  let error: MutableProperty<(any Error)?>
  private let status: PersistentStoredValueStatus
  private let writer: AnyCancellable

  /// Reads the stored value (or takes `defaultValue`) and starts writing every later value.
  init(
    engine: any PersistentPropertyStorageEngine, key: PersistentPropertyKey, defaultValue: Output,
    migration: (@Sendable (Data) throws -> Output)?
  ) {
    let reader = PersistentValueReader(engine: engine, key: key, migration: migration)
    var loaded: Output?
    var loadError: (any Error)?
    var unreadable = false
    switch reader.read() {
    case .value(let stored): loaded = stored
    case .unreadable(let readError): (loadError, unreadable) = (readError, true)
    case .undecodable(let decodeError): loadError = decodeError
    }
    let value = MutableProperty(loaded ?? defaultValue)
    let error = MutableProperty(loadError)
    let status = PersistentStoredValueStatus(unreadable: unreadable)
    self.value = value
    self.error = error
    self.status = status
    // The first value delivered is the one just read (or the default): nothing to write.
    writer = value.dropFirst().sink { newValue in
      do {
        guard try Self.mayWrite(reader: reader, status: status, error: error) else { return }
        try engine.store(value: newValue, key: key)
      } catch let writeError {
        error.value = writeError
      }
    }
  }

  /// Gives up the stored value, readable or not: the writer sets an unreadable one aside (the
  /// file engine renames its file; other engines are written over), then writes the property's
  /// current value, which is published again.
  func discardStoredValue() {
    error.value = nil
    status.requestDiscard()
    value.modify { _ in }  // the writer sees the request before it writes this value
  }

  /// Whether the writer may write now. While the stored value is unreadable, a read is tried
  /// first, and a value that is still unreadable is reported and not written over. Throws
  /// what discarding the stored value met.
  private static func mayWrite(
    reader: PersistentValueReader<Output>, status: PersistentStoredValueStatus,
    error: MutableProperty<(any Error)?>
  ) throws -> Bool {
    if status.takeDiscardRequest() {
      if status.isUnreadable {
        try reader.setAside()  // throws: still unreadable, nothing written
        status.isUnreadable = false
      }
      return true
    }
    guard status.isUnreadable else { return true }
    switch reader.read() {
    case .unreadable(let readError):
      error.value = readError
      return false
    case .undecodable(let decodeError):
      error.value = decodeError  // set aside by the file engine: the value may be written
    case .value:
      break  // readable again: the value set since wins, as the latest set always does
    }
    status.isUnreadable = false
    return true
  }
}

extension PersistentValueSlot: Sendable where Output: Sendable {}
