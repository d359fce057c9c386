import CombineExCore
import Observation

/// An `@Observable` mirror of a property for SwiftUI (or any Observation client), whose
/// ``value`` changes only on the main queue.
///
/// Keep your model's state in properties, and give views a `UIProperty` of it:
///
/// ```swift
/// @MainActor final class DownloadViewModel {
///   let progress: UIProperty<Double>
///   init(progress: Property<Double>) {
///     self.progress = UIProperty(progress)
///   }
/// }
/// // A SwiftUI view reading `model.progress.value` re-renders when it changes.
/// ```
///
/// ## Semantics
/// - The value starts as the property's current value.
/// - Every value the property publishes is applied through ``UIScheduler``: at once when it is
///   published on the main queue (so views see it in the same frame), otherwise on the main
///   queue, in order. Observers (`withObservationTracking`, SwiftUI) are therefore notified on
///   the main queue. No deduplication: each published value is a change.
/// - The class is main-actor isolated: create it and read `value` on the main actor.
/// - It follows the property until it is deinitialized (it does not keep itself alive).
@MainActor
@Observable
public final class UIProperty<Output> {
  /// The latest value the property published, as applied on the main queue.
  public private(set) var value: Output

  @ObservationIgnored
  private var subscription: AnyCancellable?

  /// Creates a mirror of `property`.
  public init<P: PropertyProtocol>(_ property: P) where P.Output == Output {
    value = property.value
    subscription = property.receive(on: UIScheduler.shared).sink { [weak self] newValue in
      // UIScheduler only runs work on the main queue, which is the main actor's executor.
      MainActor.assumeIsolated { self?.value = newValue }
    }
  }
}
