/// The closures of a ``Subscribers/Sink``.
@usableFromInline
final class SinkHandlers<Input, Failure: Error> {
  @usableFromInline
  let receiveValue: (Input) -> Void

  @usableFromInline
  let receiveCompletion: (Subscribers.Completion<Failure>) -> Void

  @inlinable
  init(
    receiveValue: @escaping (Input) -> Void,
    receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void
  ) {
    self.receiveValue = receiveValue
    self.receiveCompletion = receiveCompletion
  }
}
