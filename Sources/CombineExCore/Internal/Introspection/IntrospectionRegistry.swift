import Synchronization

/// Whether at least one `_Introspection` object is enabled.
///
/// `subscribe(_:)` runs on every pipeline's path; while nothing is enabled this one relaxed
/// load is all the hooks cost it. Written only under the registry's lock, together with the
/// list it summarizes. (`package`: CombineEx's `Property.sink` tests it as `sink` does.)
@usableFromInline
package let introspectionIsActive = Atomic<Bool>(false)

/// The enabled `_Introspection` objects, in the order they were enabled.
final class IntrospectionRegistry: @unchecked Sendable {
  // @unchecked Sendable: `handlers` is read and written only under `lock`.
  static let shared = IntrospectionRegistry()

  private let lock = Lock()
  private var handlers: [any _Introspection] = []

  private init() {}

  func enable(_ handler: any _Introspection) {
    lock.withLock {
      guard !handlers.contains(where: { $0 === handler }) else { return }
      handlers.append(handler)
      introspectionIsActive.store(true, ordering: .relaxed)
    }
  }

  func disable(_ handler: any _Introspection) {
    let removed = lock.withLock { () -> (any _Introspection)? in
      guard let index = handlers.firstIndex(where: { $0 === handler }) else { return nil }
      let removed = handlers.remove(at: index)
      if handlers.isEmpty { introspectionIsActive.store(false, ordering: .relaxed) }
      return removed
    }
    _ = removed  // Released outside the lock.
  }

  func isEnabled(_ handler: any _Introspection) -> Bool {
    lock.withLock { handlers.contains(where: { $0 === handler }) }
  }

  /// The objects to tell about an event: none (and no lock taken) while nothing is enabled.
  static var current: [any _Introspection] {
    guard introspectionIsActive.load(ordering: .relaxed) else { return [] }
    return shared.lock.withLock { shared.handlers }
  }
}

/// Tells every enabled introspection object about an event (with no lock held).
@inline(__always)
func reportToIntrospection(_ event: (any _Introspection) -> Void) {
  for handler in IntrospectionRegistry.current { event(handler) }
}
