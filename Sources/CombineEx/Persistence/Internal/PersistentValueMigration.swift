import Foundation

/// The migration of a ``PersistentProperty``, bound while its engine reads the stored value.
///
/// A storage engine only offers `retrieve<T: Codable>(key:)` (its protocol is implemented by
/// users, so it gains no requirement): the property asks for a ``PersistentMigratingValue``, whose
/// decoding tries the property's type first and, if that fails, hands the stored value to the
/// migration. `Decodable.init(from:)` takes no argument, so the migration reaches it through this
/// task-local value (which synchronous code reads too): the engine must decode on the thread
/// that calls `retrieve`, as the file engine does. An engine that decodes elsewhere finds no
/// migration, and the stored value is simply undecodable.
struct PersistentValueMigration: Sendable {
  /// The property's migration, a `@Sendable (Data) throws -> Value` (a value of the
  /// property's type `Value` from the stored value as JSON); kept as `any Sendable` and cast
  /// back by ``PersistentMigratingValue``, so that only a value of that type is migrated.
  let migrate: any Sendable

  /// The migration of the read in progress on this thread, if any.
  @TaskLocal static var current: PersistentValueMigration?
}

/// What a ``PersistentProperty`` with a migration asks its engine for: a value of the property's
/// type, decoded directly or, if that fails, made by the migration from the stored JSON.
struct PersistentMigratingValue<Value: Codable>: Codable {
  let value: Value

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    do {
      // Through the container, so that the decoder's strategies (dates, data...) apply.
      value = try container.decode(Value.self)
    } catch let decodingError {
      guard
        let migrate = PersistentValueMigration.current?.migrate
          as? @Sendable (Data) throws -> Value,
        let stored = try? container.decode(StoredJSON.self),
        let json = try? StoredJSON.encoder.encode(stored)
      else { throw decodingError }
      do {
        value = try migrate(json)
      } catch let migrationError {
        throw PersistentPropertyMigrationError(
          decodingError: decodingError, migrationError: migrationError)
      }
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(value)
  }
}

/// Any stored value, as a JSON tree: what a migration receives, encoded, whatever the decoder
/// the engine uses.
enum StoredJSON: Codable {
  case null
  case bool(Bool)
  case integer(Int64)
  case unsigned(UInt64)
  case number(Double)
  case string(String)
  case array([StoredJSON])
  case object([String: StoredJSON])

  /// Encodes a migration's input (keys sorted, so that the same value gives the same bytes).
  static var encoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return encoder
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int64.self) {
      self = .integer(value)
    } else if let value = try? container.decode(UInt64.self) {
      self = .unsigned(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([StoredJSON].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: StoredJSON].self))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .integer(let value): try container.encode(value)
    case .unsigned(let value): try container.encode(value)
    case .number(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }
}
