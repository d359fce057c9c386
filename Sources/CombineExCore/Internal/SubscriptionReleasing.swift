/// A subscriber that lets go of its subscription when it completes, fails or cancels.
///
/// Combine's own subscriptions release their subscriber when the stream ends, because a
/// subscriber usually holds its subscription: without the release, the two would keep each
/// other alive. A subscription whose subscriber is known to release *it* can instead hold the
/// subscriber in a way that lets the hot delivery path read it without reference counting (see
/// ``SubjectConduitTo`` and ``ImmediateDelivery``).
///
/// Every subscriber of the core that holds its subscription releases it on termination and
/// conforms; stateless links (`MapSubscriber`, ...) conform when their downstream does.
/// Subscribers written by users are not assumed to conform, and get the conservative path.
/// (`package`: CombineEx's property relay conforms too.)
@usableFromInline
package protocol SubscriptionReleasing: Subscriber {}

extension Subscribers.Sink: SubscriptionReleasing {}
extension Subscribers.Assign: SubscriptionReleasing {}
extension MapSubscriber: SubscriptionReleasing where Downstream: SubscriptionReleasing {}
extension FilterSubscriber: SubscriptionReleasing where Downstream: SubscriptionReleasing {}
extension CompactMapSubscriber: SubscriptionReleasing where Downstream: SubscriptionReleasing {}
// A driver lets go of its upstream subscription when the operator ends.
extension OperatorDriver: SubscriptionReleasing {}
// A merge input's subscription is held by its storage, which lets go of it when the input
// completes, when another input fails and when the downstream cancels.
extension MergeInput: SubscriptionReleasing {}
