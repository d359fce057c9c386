extension Publisher {
  /// `subscribe(_:)` while an introspection object is enabled: reports the subscription, and
  /// puts an ``IntrospectedSubscriber`` in front of the subscriber unless it already is one.
  /// Out of line, so that the check in `subscribe(_:)` is all the inlined code carries.
  @usableFromInline
  @inline(never)
  func subscribeReportingToIntrospection<S: Subscriber>(_ subscriber: S)
  where S.Input == Output, S.Failure == Failure {
    if let marker = subscriber as? any IntrospectionMarker,
      let erased = marker.erasedDownstream as? AnySubscriber<S.Input, S.Failure>
    {
      // An operator passing an introspected subscriber on: the hooks see the original one.
      reportToIntrospection { $0.willReceive(publisher: self, subscriber: erased) }
      receiveReportingOperators(subscriber: subscriber)
      reportToIntrospection { $0.didReceive(publisher: self, subscriber: erased) }
    } else {
      reportToIntrospection { $0.willReceive(publisher: self, subscriber: subscriber) }
      receiveReportingOperators(subscriber: IntrospectedSubscriber(downstream: subscriber))
      reportToIntrospection { $0.didReceive(publisher: self, subscriber: subscriber) }
    }
  }
}
