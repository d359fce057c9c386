import CombineExCore
import Foundation

/// The process-wide table of live ``PersistentValueSlot``s, so that two persistent properties
/// on the same stored value share one slot and see each other's writes at once.
///
/// A slot is identified by where its value is stored (for the file engine, the file's resolved
/// path; for an engine that is a class, the engine object and the key) and by the value's type.
/// Engines that are structs have no identity: their properties never share. The table holds
/// slots weakly: a slot lives as long as a property uses it, and a property created after the
/// last one is gone reads the engine again.
enum PersistentValueSlots {
  private final class Table: @unchecked Sendable {
    // @unchecked Sendable: `slots` is guarded by `lock`.
    let lock = Lock()
    var slots: [Identity: WeakSlot] = [:]
  }

  private struct Identity: Hashable {
    let location: String
    let valueType: ObjectIdentifier
  }

  private struct WeakSlot {
    weak var slot: AnyObject?
  }

  private static let table = Table()

  /// The live slot for `key` in `engine`, or a new one.
  static func slot<Output: Codable>(
    engine: any PersistentPropertyStorageEngine, key: PersistentPropertyKey, defaultValue: Output,
    migration: (@Sendable (Data) throws -> Output)?
  ) -> PersistentValueSlot<Output> {
    guard let location = location(of: key, in: engine) else {
      return PersistentValueSlot(
        engine: engine, key: key, defaultValue: defaultValue, migration: migration)
    }
    let identity = Identity(location: location, valueType: ObjectIdentifier(Output.self))
    if let existing = table.lock.withLock({ table.slots[identity]?.slot }) {
      return existing as! PersistentValueSlot<Output>
    }
    // Created outside the lock (it reads the engine, which may be user code). If another
    // thread registered a slot meanwhile, that one wins and this one is dropped unused.
    let created = PersistentValueSlot(
      engine: engine, key: key, defaultValue: defaultValue, migration: migration)
    let winner = table.lock.withLock { () -> AnyObject in
      if let existing = table.slots[identity]?.slot { return existing }
      // Forget the slots that are gone (their properties were freed) while here.
      table.slots = table.slots.filter { $0.value.slot != nil }
      table.slots[identity] = WeakSlot(slot: created)
      return created
    }
    return winner as! PersistentValueSlot<Output>
  }

  /// Where `engine` keeps `key`'s value, as a string that is equal for equal places.
  private static func location(
    of key: PersistentPropertyKey, in engine: any PersistentPropertyStorageEngine
  ) -> String? {
    if let fileEngine = engine as? FileBasedPersistentPropertyStorageEngine {
      return (try? fileEngine.fileURL(for: key)).map { "file:" + $0.path }
    }
    guard type(of: engine as Any) is AnyClass else { return nil }
    return "engine:\(ObjectIdentifier(engine as AnyObject)):\(key.sanitizedIndex)"
  }
}
