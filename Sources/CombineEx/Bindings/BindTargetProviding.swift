import CombineExCore
import Foundation

/// An object that can make ``BindTarget``s of itself, for `<~`: adopt it in your classes
/// (every `NSObject` already does).
///
/// ```swift
/// final class Label: BindTargetProviding {
///   var text = ""
/// }
/// let label = Label()
/// let title = MutableProperty("Inbox")
/// label.bind(receiveOn: ImmediateScheduler.shared, \.text) <~ title.map { $0.uppercased() }
/// print(label.text)  // Prints: INBOX
/// ```
///
/// Values arrive on the main queue by default (through ``UIScheduler``), as UI objects need.
public protocol BindTargetProviding: AnyObject {}

extension NSObject: BindTargetProviding {}

extension BindTargetProviding {
  /// A target that sets `self[keyPath: keyPath]` to each value, on `scheduler`.
  public func bind<T>(
    receiveOn scheduler: some Scheduler = UIScheduler.shared,
    _ keyPath: WritableKeyPath<Self, T>
  ) -> BindTarget<T> {
    BindTarget(target: self, scheduler: scheduler, keyPath: keyPath)
  }

  /// A target that calls `handler` with `self` and each value, on `scheduler`.
  public func bind<T>(
    receiveOn scheduler: some Scheduler = UIScheduler.shared,
    _ handler: @escaping @Sendable (Self, T) -> Void
  ) -> BindTarget<T> {
    BindTarget(target: self, scheduler: scheduler, handler: handler)
  }
}
