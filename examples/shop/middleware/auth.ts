export default defineFwRouteMiddleware((to) => {
  if (to.path.startsWith('/account') && !useCookie('session').value) {
    return navigateTo('/login')
  }
})
