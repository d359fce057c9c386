/// A type of object with a publisher that emits before the object has changed.
///
/// By default an `ObservableObject` gets an ``ObservableObjectPublisher`` as its
/// `objectWillChange`, which emits just before any of its ``Published`` properties changes
/// (and whenever you call `objectWillChange.send()` yourself).
///
/// ```swift
/// final class Contact: ObservableObject {
///   @Published var name: String
///   @Published var age: Int
///   init(name: String, age: Int) {
///     self.name = name
///     self.age = age
///   }
/// }
/// let john = Contact(name: "John Appleseed", age: 24)
/// let cancellable = john.objectWillChange.sink { _ in print("\(john.age) will change") }
/// john.age += 1
/// // Prints: 24 will change
/// ```
///
/// ## How the default publisher is found
/// There is no Objective-C runtime to attach it to the object on every platform, so the
/// default `objectWillChange` reflects over the object (and its superclasses) with `Mirror`
/// on each access, finds its `@Published` properties and installs one shared publisher in all
/// of them the first time. The publisher therefore lives exactly as long as the object. An
/// object without `@Published` properties gets its publisher from a side table keyed by the
/// object's identity, so that `objectWillChange.send()` works for it too. Reflection sees only
/// stored properties: a class that customizes its `Mirror` (`CustomReflectable`) must declare
/// its own `objectWillChange` for `@Published` changes to be announced.
public protocol ObservableObject: AnyObject {
  /// The type of publisher that emits before the object has changed.
  associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
  where ObjectWillChangePublisher.Failure == Never

  /// A publisher that emits before the object has changed.
  var objectWillChange: ObjectWillChangePublisher { get }
}

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
  /// A publisher that emits before any `@Published` property of the object changes.
  ///
  /// Every access returns the same publisher for the same object.
  public var objectWillChange: ObservableObjectPublisher {
    var installed: ObservableObjectPublisher?
    var mirror: Mirror? = Mirror(reflecting: self)
    while let current = mirror {
      for child in current.children {
        if let property = child.value as? any PublishedProperty {
          installed = property.installObjectWillChange(installed)
        }
      }
      mirror = current.superclassMirror
    }
    return installed ?? ObjectWillChangeRegistry.shared.publisher(for: self)
  }
}

/// A `@Published` property, seen by the default `objectWillChange` through reflection.
protocol PublishedProperty {
  /// Returns the publisher the property announces its changes to, installing `candidate` (or,
  /// if `nil`, a new publisher) if it has none yet.
  func installObjectWillChange(_ candidate: ObservableObjectPublisher?)
    -> ObservableObjectPublisher
}

/// The `objectWillChange` publishers of observable objects that have no `@Published`
/// property to keep them in: a side table keyed by object identity.
///
/// Entries of deallocated objects are swept whenever the table has doubled since the last
/// sweep, so the table stays proportional to the number of live objects.
final class ObjectWillChangeRegistry: @unchecked Sendable {
  // @unchecked Sendable: `entries` and `sweepThreshold` are guarded by `lock`.
  static let shared = ObjectWillChangeRegistry()

  private struct Entry {
    weak var object: AnyObject?
    let publisher: ObservableObjectPublisher
  }

  private let lock = Lock()
  private var entries: [ObjectIdentifier: Entry] = [:]
  private var sweepThreshold = 64

  /// The publisher of `object`, created on first use.
  func publisher(for object: AnyObject) -> ObservableObjectPublisher {
    let key = ObjectIdentifier(object)
    let (publisher, swept) = lock.withLock { () -> (ObservableObjectPublisher, [Entry]) in
      // An entry whose object is gone belongs to a previous object at the same address.
      if let entry = entries[key], entry.object === object { return (entry.publisher, []) }
      var swept: [Entry] = entries[key].map { [$0] } ?? []
      if entries.count >= sweepThreshold {
        for (key, entry) in entries where entry.object == nil {
          swept.append(entry)
          entries[key] = nil
        }
        sweepThreshold = Swift.max(64, entries.count * 2)
      }
      let publisher = ObservableObjectPublisher()
      entries[key] = Entry(object: object, publisher: publisher)
      return (publisher, swept)
    }
    _ = swept  // Released outside the lock: their subscribers' deinitializers may run.
    return publisher
  }
}
