import CombineExCore

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
final class PersistentValueSlot<Output: Codable> {
  let value: MutableProperty<Output>
  let error: MutableProperty<(any Error)?>
  private let writer: AnyCancellable

  /// Reads the stored value (or takes `defaultValue`) and starts writing every later value.
  init(
    engine: any PersistentPropertyStorageEngine, key: PersistentPropertyKey, defaultValue: Output
  ) {
    var loaded: Output?
    var loadError: (any Error)?
    do {
      loaded = try engine.retrieve(key: key)
    } catch {
      loadError = error
    }
    let value = MutableProperty(loaded ?? defaultValue)
    let error = MutableProperty(loadError)
    self.value = value
    self.error = error
    // The first value delivered is the one just read (or the default): nothing to write.
    writer = value.dropFirst().sink { newValue in
      do {
        try engine.store(value: newValue, key: key)
      } catch let storeError {
        error.value = storeError
      }
    }
  }
}

extension PersistentValueSlot: Sendable where Output: Sendable {}
