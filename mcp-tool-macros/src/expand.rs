//! Writes the code for checked tools. The generated code is small: one arguments struct for
//! the derives, one cached definition, one handler that calls generic runtime functions.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::LitStr;
use syn::spanned::Spanned;

use crate::ast::{self, FreeTool, Place, Tool, ToolSet};
use crate::check;
use crate::errors::Errors;
use crate::fallback;
use crate::validate_attr::{ValidateAttr, Validator};

/// `#[mcp_tool]` on an item.
pub(crate) fn tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    if ast::is_handled_marker(&attr) {
        return item;
    }
    let mut errors = Errors::default();
    let Some(free) = ast::parse_free_tool(attr, item.clone(), &mut errors) else {
        let compile_errors = errors.to_compile_errors();
        return quote!(#compile_errors #item);
    };
    check::tool(&free.tool, &mut errors);
    if !errors.is_empty() {
        return fallback::free(&free, &errors);
    }
    let FreeTool { function, tool } = &free;
    let vis = &function.vis;
    let definition = format_ident!(
        "{}_tool",
        tool.function_name,
        span = function.sig.ident.span()
    );
    let doc = format!(
        "The MCP tool definition of [`{}`], for `McpServer::builder(..).tool(..)`.",
        function.sig.ident
    );
    let body = definition_body(tool, quote!(__S));
    quote! {
        #function
        #[doc = #doc]
        #vis fn #definition<__S>() -> ::mcp_tool_runtime::ToolDef<__S>
        where
            __S: ::core::marker::Send + ::core::marker::Sync + 'static,
        {
            #body
        }
    }
}

/// `#[mcp_tools]` on an impl block.
pub(crate) fn tool_set(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = Errors::default();
    let Some(set) = ast::parse_tool_set(attr, item.clone(), &mut errors) else {
        let compile_errors = errors.to_compile_errors();
        return quote!(#compile_errors #item);
    };
    check::tool_set(&set, &mut errors);
    if !errors.is_empty() {
        return fallback::tool_set(&set.block, &errors);
    }
    let ToolSet { block, tools } = &set;
    let (impl_generics, _, where_clause) = block.generics.split_for_impl();
    let self_ty = &block.self_ty;
    let definitions = tools.iter().map(|tool| {
        let ident = format_ident!("__mcp_tool_{}", tool.function_name);
        let body = definition_body(tool, quote!(Self));
        quote! {
            #[doc(hidden)]
            fn #ident() -> ::mcp_tool_runtime::ToolDef<Self> {
                #body
            }
        }
    });
    let calls = tools.iter().map(|tool| {
        let ident = format_ident!("__mcp_tool_{}", tool.function_name);
        quote!(Self::#ident())
    });
    quote! {
        #block

        impl #impl_generics #self_ty #where_clause {
            #(#definitions)*
        }

        impl #impl_generics ::mcp_tool_runtime::ToolSet for #self_ty #where_clause {
            fn tools() -> ::std::vec::Vec<::mcp_tool_runtime::ToolDef<Self>> {
                ::std::vec![#(#calls),*]
            }
        }
    }
}

fn optional_flag(flag: Option<crate::attr::Flag>) -> TokenStream {
    match flag {
        Some(flag) => {
            let value = flag.value;
            quote!(::core::option::Option::Some(#value))
        }
        None => quote!(::core::option::Option::None),
    }
}

/// Whether an argument can be a type parameter of the hidden arguments struct: only when no
/// option of ours or of the derives depends on its concrete type.
fn is_plain(arg: &ast::Arg) -> bool {
    arg.validate.is_empty()
        && arg.passthrough.is_empty()
        && arg.attr.default.is_none()
        && arg.attr.example.is_none()
}

/// The body of the function that returns a tool's `ToolDef`: the arguments type, the cached
/// definition, and the handler.
///
/// The user's argument and return types are checked in one place, the statements of this
/// body, with the user's own tokens: the hidden arguments struct is generic over the plain
/// argument types, and the schema and parsing go through generic helper functions bounded by
/// the runtime's traits. A type that does not qualify then fails once, with our
/// `#[diagnostic::on_unimplemented]` message at its token, instead of once per use inside
/// the derives (rustc drops a repeated unsatisfied bound at the same span in one body).
fn definition_body(tool: &Tool, state: TokenStream) -> TokenStream {
    let rt = quote!(::mcp_tool_runtime);
    let name = LitStr::new(&tool.name, tool.name_span());
    let description = tool
        .attr
        .description
        .as_ref()
        .map(LitStr::value)
        .unwrap_or_else(|| tool.docs.description.clone());
    let output = &tool.output;

    // Nested items, the checks of the user's types, and the type parameters of the helpers
    // with the user's types they stand for.
    let mut items = Vec::new();
    let mut checks = Vec::new();
    let mut params: Vec<(syn::Ident, &syn::Type)> = Vec::new();
    let bounds;
    let (arguments_type, builder_extra, bindings, call_args) = match tool.whole_input() {
        Some(input) => {
            let ty = &input.ty;
            checks.push(quote!(#rt::__private::assert_input::<#ty>();));
            bounds = quote! {
                #rt::__private::ToolInput
                    + #rt::__private::serde::de::DeserializeOwned
                    + #rt::__private::schemars::JsonSchema
                    + #rt::__private::validator::Validate
            };
            let param = format_ident!("__McpInput");
            params.push((param.clone(), ty));
            (
                quote!(#param),
                quote!(.whole_input()),
                quote!(__mcp_input),
                vec![quote!(__mcp_input)],
            )
        }
        None => {
            bounds = quote! {
                #rt::__private::ToolArgument
                    + #rt::__private::serde::de::DeserializeOwned
                    + #rt::__private::schemars::JsonSchema
            };
            let mut fields = Vec::new();
            for arg in &tool.args {
                let ident = &arg.ident;
                let ty = &arg.ty;
                checks.push(quote!(#rt::__private::assert_argument::<#ty>();));
                let doc = arg
                    .attr
                    .description
                    .as_ref()
                    .map(LitStr::value)
                    .or_else(|| {
                        tool.docs
                            .arguments
                            .iter()
                            .find(|doc| doc.name == arg.property)
                            .map(|doc| doc.text.clone())
                    })
                    .map(|text| quote!(#[doc = #text]));
                let default = arg.attr.default.as_ref().map(|default| match default {
                    None => quote!(#[serde(default)]),
                    Some(expr) => {
                        let function = format_ident!("__mcp_default_{}", arg.property);
                        let path = LitStr::new(&function.to_string(), Span::call_site());
                        let value = default_value(ty, expr);
                        items.push(quote_spanned!(expr.span()=>
                            #[allow(non_snake_case)]
                            fn #function() -> #ty {
                                #value
                            }
                        ));
                        quote!(#[serde(default = #path)])
                    }
                });
                let example = arg
                    .attr
                    .example
                    .as_ref()
                    .map(|expr| quote!(#[schemars(example = (#expr))]));
                let validate = arg.validate.iter().map(|validate| &validate.attr);
                let passthrough = &arg.passthrough;
                let exclusive = exclusive_bounds(&arg.validate);
                let field_ty = if is_plain(arg) {
                    let param = format_ident!("__McpArg{}", params.len());
                    let field_ty = quote!(#param);
                    params.push((param, ty));
                    field_ty
                } else {
                    quote!(#ty)
                };
                fields.push(quote! {
                    #doc #default #example #(#validate)* #(#passthrough)* #exclusive
                    #ident: #field_ty
                });
            }
            let generics = params.iter().map(|(param, _)| param);
            items.push(quote! {
                // `#[validate(nested)]` calls `.validate()` on the argument's value.
                #[allow(unused_imports)]
                use #rt::__private::validator::Validate as _;
                #[derive(
                    #rt::__private::serde::Deserialize,
                    #rt::__private::schemars::JsonSchema,
                    #rt::__private::validator::Validate
                )]
                #[serde(crate = "::mcp_tool_runtime::__private::serde", deny_unknown_fields)]
                #[schemars(
                    crate = "::mcp_tool_runtime::__private::schemars",
                    rename = "__McpArguments"
                )]
                #[validate(crate = "::mcp_tool_runtime::__private::validator")]
                #[allow(non_camel_case_types, dead_code)]
                struct __McpArguments<#(#generics),*> {
                    #(#fields,)*
                }
            });
            let generics = params.iter().map(|(param, _)| param);
            let bound: Vec<_> = (0..tool.args.len())
                .map(|i| format_ident!("__mcp_arg{i}"))
                .collect();
            let idents = tool.args.iter().map(|arg| &arg.ident);
            (
                quote!(__McpArguments<#(#generics),*>),
                quote!(),
                quote!(__McpArguments { #(#idents: #bound),* }),
                bound.iter().map(|b| quote!(#b)).collect(),
            )
        }
    };
    let generic_params: Vec<_> = params
        .iter()
        .map(|(param, _)| quote!(#param: #bounds))
        .collect();
    let user_types: Vec<_> = params.iter().map(|(_, ty)| *ty).collect();

    let function = &tool.ident;
    let mut call_args = call_args;
    if let Some(context) = tool.context() {
        call_args.insert(context.position, quote!(__mcp_call.context()));
    }
    let call = match (tool.place, tool.receiver.is_some()) {
        (_, true) => quote!(__mcp_state.#function(#(#call_args),*)),
        (Place::ToolSet, false) => quote!(Self::#function(#(#call_args),*)),
        (Place::Free, false) => quote!(#function(#(#call_args),*)),
    };
    let call = if tool.is_async {
        quote!(#call.await)
    } else {
        call
    };
    let title = tool.attr.title.as_ref().map(|title| quote!(.title(#title)));
    let meta = tool
        .attr
        .meta
        .as_ref()
        .map(|meta| quote!(.meta_json(#meta)));
    let schema_profile = tool
        .attr
        .schema_profile
        .as_ref()
        .map(|variant| quote!(.schema_profile(#rt::SchemaProfile::#variant)));
    let timeout = tool
        .attr
        .timeout_ms
        .map(|millis| quote!(.timeout_ms(#millis)));
    let read_only = optional_flag(tool.attr.read_only);
    let destructive = optional_flag(tool.attr.destructive);
    let idempotent = optional_flag(tool.attr.idempotent);
    let open_world = optional_flag(tool.attr.open_world);
    let state_param = if tool.receiver.is_some() {
        quote!(__mcp_state)
    } else {
        quote!(_)
    };

    quote! {
        #(#items)*

        fn __mcp_info<__McpOutput: #rt::IntoToolOutput, #(#generic_params),*>() -> #rt::ToolInfo {
            #rt::ToolInfo::builder::<#arguments_type, __McpOutput>(#name, #description)
                #title
                #meta
                #schema_profile
                #builder_extra
                #timeout
                .hints(#rt::Hints {
                    read_only: #read_only,
                    destructive: #destructive,
                    idempotent: #idempotent,
                    open_world: #open_world,
                })
                .build()
        }

        fn __mcp_parse<#(#generic_params),*>(
            call: &#rt::ToolCall<'_>,
        ) -> ::core::result::Result<#arguments_type, #rt::ToolError> {
            call.parse::<#arguments_type>()
        }

        #(#checks)*
        #rt::__private::assert_output::<#output>();

        static INFO: ::std::sync::OnceLock<#rt::ToolInfo> = ::std::sync::OnceLock::new();
        let info = INFO.get_or_init(|| __mcp_info::<#output, #(#user_types),*>());
        #rt::ToolDef::<#state>::new(info, |#state_param, __mcp_call| {
            #rt::__private::boxed(async move {
                let #bindings = match __mcp_parse::<#(#user_types),*>(&__mcp_call) {
                    ::core::result::Result::Ok(arguments) => arguments,
                    ::core::result::Result::Err(error) => return ::core::result::Result::Err(error),
                };
                <#output as #rt::IntoToolOutput>::into_tool_output(#call)
            })
        })
    }
}

/// `validator`'s `range(exclusive_min = .., exclusive_max = ..)` as the schema's
/// `exclusiveMinimum`/`exclusiveMaximum`, which schemars does not derive: without them the
/// published schema would accept the bound itself, which the runtime rejects.
///
/// Only a literal (`10`, `-1.5`) can go into the schema; another expression (a `const`) is
/// left to the runtime check.
fn exclusive_bounds(validate: &[ValidateAttr]) -> TokenStream {
    let ranges = validate
        .iter()
        .flat_map(|attr| &attr.rules)
        .filter(|rule| rule.validator == Validator::Range);
    let bounds = ranges.flat_map(|rule| &rule.options).filter_map(|option| {
        let keyword = match option.key.as_str() {
            "exclusive_min" => "exclusiveMinimum",
            "exclusive_max" => "exclusiveMaximum",
            _ => return None,
        };
        let value = option.value.as_ref()?;
        matches!(value, syn::Expr::Lit(_) | syn::Expr::Unary(_))
            .then(|| quote!(#[schemars(extend(#keyword = #value))]))
    });
    quote!(#(#bounds)*)
}

/// The inner type of a syntactic `Option<T>`.
fn option_inner(ty: &syn::Type) -> Option<&syn::Type> {
    let syn::Type::Path(path) = ty else {
        return None;
    };
    let last = path.path.segments.last()?;
    if last.ident != "Option" {
        return None;
    }
    match &last.arguments {
        syn::PathArguments::AngleBracketed(args) if args.args.len() == 1 => match &args.args[0] {
            syn::GenericArgument::Type(inner) => Some(inner),
            _ => None,
        },
        _ => None,
    }
}

/// True for `Some(..)` and `None`, which already are `Option`s.
fn is_option_expr(expr: &syn::Expr) -> bool {
    let path = match expr {
        syn::Expr::Call(call) => match call.func.as_ref() {
            syn::Expr::Path(path) => &path.path,
            _ => return false,
        },
        syn::Expr::Path(path) => &path.path,
        _ => return false,
    };
    path.segments
        .last()
        .is_some_and(|segment| segment.ident == "Some" || segment.ident == "None")
}

/// The body of a default function for `#[arg(default = expr)]`. The expression is typed
/// against the argument's type directly, so `10` is a `u32` where the argument is one; a
/// string literal converts with `From` (`String`, `Cow`); an `Option<T>` argument takes a
/// plain `T` value and wraps it in `Some`.
fn default_value(ty: &syn::Type, expr: &syn::Expr) -> TokenStream {
    let convert = |expr: &syn::Expr| match expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(_),
            ..
        }) => quote!(::core::convert::From::from(#expr)),
        _ => quote!(#expr),
    };
    match option_inner(ty) {
        Some(_) if !is_option_expr(expr) => {
            let inner = convert(expr);
            quote!(::core::option::Option::Some(#inner))
        }
        _ => convert(expr),
    }
}
