/// Apple's underscored debugging hooks: an object told about every event of every pipeline
/// while it is enabled.
///
/// Implement the methods you need (each has an empty default), then call ``enable()``. From then
/// on, ``Publisher/subscribe(_:)-5njf1`` reports the subscription it makes, and the subscriber
/// and subscription it hands out report every subscription, value, completion, request and
/// cancel to every enabled introspection object, until ``disable()``. A pipeline subscribed
/// while no introspection object was enabled reports nothing, ever. Several objects may be
/// enabled at once; each sees every event. The methods are called on the thread of the event,
/// with no lock held.
///
/// This is a debugging tool, as in Combine: the hooks run on every event, so keep them fast.
///
/// ```swift
/// final class Counter: _Introspection {
///   var values = 0
///   func willReceive<S: Subscriber>(subscriber: S, input: S.Input) {
///     values += 1
///   }
/// }
///
/// let counter = Counter()
/// counter.enable()
/// let cancellable = [1, 2, 3].publisher.sink { _ in }
/// counter.disable()
/// // counter.values == 3
/// ```
public protocol _Introspection: AnyObject {
  /// Called before `publisher` receives `subscriber` through `subscribe(_:)`.
  func willReceive<Upstream: Publisher, Downstream: Subscriber>(
    publisher: Upstream, subscriber: Downstream
  ) where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input

  /// Called after `publisher` received `subscriber` through `subscribe(_:)`.
  func didReceive<Upstream: Publisher, Downstream: Subscriber>(
    publisher: Upstream, subscriber: Downstream
  ) where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input

  /// Called before `subscriber` receives `subscription`.
  func willReceive<Downstream: Subscriber>(subscriber: Downstream, subscription: any Subscription)

  /// Called after `subscriber` received `subscription`.
  func didReceive<Downstream: Subscriber>(subscriber: Downstream, subscription: any Subscription)

  /// Called before `subscriber` receives a value.
  func willReceive<Downstream: Subscriber>(subscriber: Downstream, input: Downstream.Input)

  /// Called after `subscriber` received a value, with the demand it returned.
  func didReceive<Downstream: Subscriber>(
    subscriber: Downstream, input: Downstream.Input, resultingDemand: Subscribers.Demand)

  /// Called before `subscriber` receives its completion.
  func willReceive<Downstream: Subscriber>(
    subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>)

  /// Called after `subscriber` received its completion.
  func didReceive<Downstream: Subscriber>(
    subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>)

  /// Called before `subscription` is asked for `demand` more values.
  func willRequest(subscription: any Subscription, _ demand: Subscribers.Demand)

  /// Called after `subscription` was asked for `demand` more values.
  func didRequest(subscription: any Subscription, _ demand: Subscribers.Demand)

  /// Called before `subscription` is cancelled.
  func willCancel(subscription: any Subscription)

  /// Called after `subscription` was cancelled.
  func didCancel(subscription: any Subscription)
}

extension _Introspection {
  /// Does nothing.
  public func willReceive<Upstream: Publisher, Downstream: Subscriber>(
    publisher: Upstream, subscriber: Downstream
  ) where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input {}

  /// Does nothing.
  public func didReceive<Upstream: Publisher, Downstream: Subscriber>(
    publisher: Upstream, subscriber: Downstream
  ) where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input {}

  /// Does nothing.
  public func willReceive<Downstream: Subscriber>(
    subscriber: Downstream, subscription: any Subscription
  ) {}

  /// Does nothing.
  public func didReceive<Downstream: Subscriber>(
    subscriber: Downstream, subscription: any Subscription
  ) {}

  /// Does nothing.
  public func willReceive<Downstream: Subscriber>(
    subscriber: Downstream, input: Downstream.Input
  ) {}

  /// Does nothing.
  public func didReceive<Downstream: Subscriber>(
    subscriber: Downstream, input: Downstream.Input, resultingDemand: Subscribers.Demand
  ) {}

  /// Does nothing.
  public func willReceive<Downstream: Subscriber>(
    subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>
  ) {}

  /// Does nothing.
  public func didReceive<Downstream: Subscriber>(
    subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>
  ) {}

  /// Does nothing.
  public func willRequest(subscription: any Subscription, _ demand: Subscribers.Demand) {}

  /// Does nothing.
  public func didRequest(subscription: any Subscription, _ demand: Subscribers.Demand) {}

  /// Does nothing.
  public func willCancel(subscription: any Subscription) {}

  /// Does nothing.
  public func didCancel(subscription: any Subscription) {}

  /// Starts reporting events to this object (enabling it twice has no further effect).
  ///
  /// Safe to call from any thread, together with ``disable()`` and events on other threads.
  public func enable() {
    IntrospectionRegistry.shared.enable(self)
  }

  /// Stops reporting events to this object (disabling an object that is not enabled does
  /// nothing). An event that has already started on another thread may still reach it.
  public func disable() {
    IntrospectionRegistry.shared.disable(self)
  }

  /// Whether this object is enabled.
  public var isEnabled: Bool {
    IntrospectionRegistry.shared.isEnabled(self)
  }
}
